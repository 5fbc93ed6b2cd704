import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

final class GateTests: XCTestCase {
    func report(_ results: [StrategyResult], cpu: String = "cpu", build: String = "release") -> RunReport {
        RunReport(build: build, environment: Environment(cpu: cpu, cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    func gate(_ base: StrategyResult, _ current: StrategyResult, _ options: Gate.Options = .init()) throws -> Gate.Report {
        try Gate.compare(baseline: report([base]), current: report([current]), options: options)
    }

    func testIdenticalResultsPass() throws {
        XCTAssertTrue(try gate(strategyResult(), strategyResult()).regressions.isEmpty)
    }

    func testOneExtraAllocationPerEventFails() throws {
        let r = try gate(strategyResult(), strategyResult(allocations: 1))
        XCTAssertEqual(r.regressions.map(\.metric), ["allocations/event"])
    }

    func testChangedChecksumFails() throws {
        XCTAssertEqual(try gate(strategyResult(), strategyResult(checksum: 0xabd)).regressions.map(\.metric), ["checksum"])
    }

    func testInstructionsBeyondToleranceFailAndWithinPass() throws {
        XCTAssertEqual(try gate(strategyResult(), strategyResult(instructions: 1030)).regressions.map(\.metric), ["instructions/event"])
        XCTAssertTrue(try gate(strategyResult(), strategyResult(instructions: 1015)).regressions.isEmpty)
        XCTAssertEqual(try gate(strategyResult(), strategyResult(instructions: nil)).regressions.map(\.metric), ["instructions/event"])
    }

    /// A row fewer instructions beyond the tolerance is "improved" and says how to keep the gain, never
    /// "within tolerance" beside "improved" (the note once said so for every row not regressed).
    func testInstructionsBeyondToleranceBelowSayImprovedAndHowToKeepIt() throws {
        let finding = try XCTUnwrap(try gate(strategyResult(), strategyResult(instructions: 970)).findings.first { $0.metric == "instructions/event" })
        XCTAssertEqual(finding.shownVerdict, "improved")
        XCTAssertTrue(finding.note.contains("fewer instructions") && finding.note.contains("--update"), finding.note)
        let within = try XCTUnwrap(try gate(strategyResult(), strategyResult(instructions: 990)).findings.first { $0.metric == "instructions/event" })
        XCTAssertEqual([within.shownVerdict, within.note], ["within tolerance", "within tolerance"])
    }

    func testSignificantSlowdownFailsOnlyWhenEnforced() throws {
        let slower = strategyResult(samples: [12, 12.1, 11.9, 12.05, 11.95])
        XCTAssertEqual(try gate(strategyResult(), slower).regressions.map(\.metric), ["ns/event (median)"])
        var options = Gate.Options()
        options.wallClock = .informational
        XCTAssertTrue(try gate(strategyResult(), slower, options).regressions.isEmpty)
    }

    func testSlowdownBelowTheMinimumEffectPasses() throws {
        XCTAssertTrue(try gate(strategyResult(), strategyResult(samples: [10.3, 10.4, 10.2, 10.35, 10.25])).regressions.isEmpty)
    }

    func testUnlikeEnvironmentsAreRefusedUnlessAllowed() throws {
        XCTAssertThrowsError(try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], cpu: "other"), options: .init()))
        XCTAssertThrowsError(try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], build: "debug"), options: .init()))
        var options = Gate.Options()
        options.allowedDifferences = ["cpu"]
        let r = try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], cpu: "other"), options: options)
        XCTAssertEqual(r.notes.filter { $0.hasPrefix("environment differs, allowed by --allow-difference: cpu") }.count, 1, "\(r.notes)")
    }

    func testMissingRowFails() throws {
        let r = try Gate.compare(baseline: report([strategyResult(), strategyResult("floor")]), current: report([strategyResult()]), options: .init())
        XCTAssertEqual(r.regressions.map(\.row), ["floor none ×1"])
    }

    func testMalformedResultsFileNamesTheJSONPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-results-\(getpid()).json").path
        try Data(#"{"schema":"trigger-bench-results/1","build":"release","results":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(path)) { error in
            XCTAssertTrue("\(error)".contains("environment"), "\(error)")
        }
    }

    /// Valid JSON an integer field cannot hold is named by its path, not called invalid JSON.
    func testAFractionInAnIntegerFieldNamesItsPath() throws {
        var text = String(decoding: try report([strategyResult()]).json(), as: UTF8.self)
        let triggers = try XCTUnwrap(text.range(of: #""triggers" : 10"#))
        text.replaceSubrange(triggers, with: #""triggers" : 1.5"#)
        XCTAssertThrowsError(try RunReport.decode(Array(text.utf8), file: "r.json")) { error in
            XCTAssertTrue("\(error)".hasPrefix("r.json: workload.triggers: expected an integer, found 1.5"), "\(error)")
        }
    }

    /// A sweep file given where a results file goes is named as one, not judged by its figures.
    func testASweepFileIsNamedAsOne() {
        let sweep = #"{"schema":"trigger-bench-sweep/1","fits":{"triggers":{"floor":{"exponent":-1.7}}}}"#
        XCTAssertThrowsError(try RunReport.decode(Array(sweep.utf8), file: "s.json")) { error in
            XCTAssertTrue("\(error)".hasPrefix("s.json: schema: this is a sweep file (bench sweep --json); expected a results file"), "\(error)")
        }
    }

    /// A spec's seed may be any integer it takes; a results file of such a run reads back.
    func testALargeSeedReadsBack() throws {
        var r = report([strategyResult()])
        r.workload.seed = UInt64(Int64.max)
        let back = try RunReport.decode(Array(try r.json()), file: "r.json")
        XCTAssertEqual(back.workload.seed, UInt64(Int64.max))
    }
}
