import Foundation
@testable import Harness
import TriggerKit
import Workload
import XCTest

final class MannWhitneyTests: XCTestCase {
    func testCompletelySeparatedSamplesOfFiveGiveTheExactMinimumPValue() {
        let (u, p) = MannWhitney.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        XCTAssertEqual(u, 0)
        XCTAssertEqual(p, 2.0 / 252.0, accuracy: 1e-12)  // 2 of C(10, 5) arrangements are as extreme
    }

    func testInterleavedSamplesAreNotSignificant() {
        let (_, p) = MannWhitney.test([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])
        XCTAssertGreaterThan(p, 0.5)
    }

    func testLargeSamplesUseTheNormalApproximation() {
        let x = (0..<40).map { Double($0) }, y = (0..<40).map { Double($0) + 30 }
        let (_, p) = MannWhitney.test(x, y)
        XCTAssertLessThan(p, 1e-6)
    }

    func testMedianOfEvenAndOddSamples() {
        XCTAssertEqual(MannWhitney.median([3, 1, 2]), 2)
        XCTAssertEqual(MannWhitney.median([4, 1, 3, 2]), 2.5)
    }
}

final class GateTests: XCTestCase {
    func result(_ strategy: String = "compiled", checksum: String = "abc", allocations: Double = 0, instructions: Double? = 1000,
                samples: [Double]? = [10, 10.1, 9.9, 10.05, 9.95]) -> StrategyResult {
        StrategyResult(
            strategy: strategy, publication: .none, threads: 1, events: 100, matches: 5, checksum: checksum, eventsPerSecond: 1e8,
            nsPerEvent: .init(mean: 10, p50: 10, p90: 11, p99: 12, p999: 13, max: 20), allocationsPerEvent: allocations,
            bytesPerEvent: 0, jemalloc: .init(allocated: 0, active: 0, resident: 0, mapped: 0, metadata: 0, retained: 0),
            matchesPerEvent: 0.05, candidatesPerEvent: 1, cpuSeconds: 1, wallSeconds: 1, speedupVsReference: nil,
            ratioToFloor: nil, buildSeconds: 0, publications: nil, rebuildMsPerPublication: nil, rebuildCpuMsPerPublication: nil, perThreadEventsPerSecond: nil, nsPerEventSamples: samples,
            instructionsPerEvent: instructions, heapBytesBeforePublishing: nil, heapBytesAfterPublishing: nil)
    }

    func report(_ results: [StrategyResult], cpu: String = "cpu", build: String = "release") -> RunReport {
        RunReport(build: build, environment: Environment(cpu: cpu, cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    func gate(_ base: StrategyResult, _ current: StrategyResult, _ options: Gate.Options = .init()) throws -> Gate.Report {
        try Gate.compare(baseline: report([base]), current: report([current]), options: options)
    }

    func testIdenticalResultsPass() throws {
        XCTAssertTrue(try gate(result(), result()).regressions.isEmpty)
    }

    func testOneExtraAllocationPerEventFails() throws {
        let r = try gate(result(), result(allocations: 1))
        XCTAssertEqual(r.regressions.map(\.metric), ["allocations/event"])
    }

    func testChangedChecksumFails() throws {
        XCTAssertEqual(try gate(result(), result(checksum: "abd")).regressions.map(\.metric), ["checksum"])
    }

    func testInstructionsBeyondToleranceFailAndWithinPass() throws {
        XCTAssertEqual(try gate(result(), result(instructions: 1030)).regressions.map(\.metric), ["instructions/event"])
        XCTAssertTrue(try gate(result(), result(instructions: 1015)).regressions.isEmpty)
        XCTAssertEqual(try gate(result(), result(instructions: nil)).regressions.map(\.metric), ["instructions/event"])
    }

    func testSignificantSlowdownFailsOnlyWhenEnforced() throws {
        let slower = result(samples: [12, 12.1, 11.9, 12.05, 11.95])
        XCTAssertEqual(try gate(result(), slower).regressions.map(\.metric), ["ns/event (median)"])
        var options = Gate.Options()
        options.wallClock = .informational
        XCTAssertTrue(try gate(result(), slower, options).regressions.isEmpty)
    }

    func testSlowdownBelowTheMinimumEffectPasses() throws {
        XCTAssertTrue(try gate(result(), result(samples: [10.3, 10.4, 10.2, 10.35, 10.25])).regressions.isEmpty)
    }

    func testUnlikeEnvironmentsAreRefusedUnlessAllowed() throws {
        XCTAssertThrowsError(try Gate.compare(baseline: report([result()]), current: report([result()], cpu: "other"), options: .init()))
        XCTAssertThrowsError(try Gate.compare(baseline: report([result()]), current: report([result()], build: "debug"), options: .init()))
        var options = Gate.Options()
        options.allowedDifferences = ["cpu"]
        let r = try Gate.compare(baseline: report([result()]), current: report([result()], cpu: "other"), options: options)
        XCTAssertEqual(r.notes.count, 1)
    }

    func testMissingRowFails() throws {
        let r = try Gate.compare(baseline: report([result(), result("floor")]), current: report([result()]), options: .init())
        XCTAssertEqual(r.regressions.map(\.row), ["floor none ×1"])
    }

    func testMalformedResultsFileNamesTheJSONPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-results-\(getpid()).json").path
        try Data(#"{"schema":"trigger-bench-results/1","build":"release","results":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(path)) { error in
            XCTAssertTrue("\(error)".contains("environment"), "\(error)")
        }
    }
}

final class BuildTimingTests: XCTestCase {
    func testEveryStrategyIsBuiltAndTimedAndAnUnknownOneIsRefused() throws {
        let spec = try WorkloadSpec.load("tiny")
        let rows = try BuildTiming.measure(spec, strategies: ["compiled", "floor"], builds: 5, warmup: 1)
        XCTAssertEqual(rows.map(\.strategy), ["compiled", "floor"])
        for r in rows {
            XCTAssertEqual(r.builds, 5)
            XCTAssertGreaterThan(r.p50Microseconds, 0)
            XCTAssertLessThanOrEqual(r.p50Microseconds, r.p99Microseconds)
        }
        XCTAssertThrowsError(try BuildTiming.measure(spec, strategies: ["fastest"], builds: 1)) { error in
            XCTAssertTrue(error is InputError, "\(error)")
        }
    }

    /// `--pause-ms`: each timed build follows a sleep, and the sleep is not part of the build's time.
    func testPausesComeBeforeEachBuildAndAreNotTimed() throws {
        let spec = try WorkloadSpec.load("tiny")
        let start = Date()
        let rows = try BuildTiming.measure(spec, strategies: ["floor"], builds: 4, warmup: 0, pauseMs: 25)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.1)
        XCTAssertLessThan(rows[0].p99Microseconds, 25_000)
    }
}
