import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// `bench check` compares like with like.
final class GateComparabilityTests: XCTestCase {
    func report(_ results: [StrategyResult], kernel: String = "k", cpu: String = "c", referenceEvents: Int = 5000, schema1: Bool = false,
                plugin: String? = nil, passSeconds: Double? = nil) -> RunReport {
        let settings = RunMetadata.Settings(
            strategies: ["compiled"], threads: [1], publications: ["none"], publishEveryMs: nil, prebuiltSets: false, events: 100,
            referenceEvents: referenceEvents, batchSize: 1024, warmupEvents: 100_000, allocationEvents: 50_000, latencyEvents: 100_000,
            repetitions: 5, warmupSeconds: passSeconds.map { _ in 0.02 }, passSeconds: passSeconds, coldEvents: passSeconds.map { _ in 100 }, plugins: plugin.map { [.init(name: "mine", version: "1", path: "/a/b/mine.so", sha256: $0)] })
        let run = RunMetadata(timestamp: "2026-11-23T00:00:00Z", commit: nil, dirty: nil, label: nil, host: "h", command: ["bench"],
                              settings: settings, noise: .init())
        var report = RunReport(build: "release", environment: Environment(cpu: cpu, cores: 2, kernel: kernel, swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                               workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results, run: schema1 ? nil : run)
        if schema1 { report.schema = "trigger-bench-results/1" }
        return report
    }

    func refusal(_ baseline: RunReport, _ current: RunReport) -> String? {
        do {
            _ = try Gate.compare(baseline: baseline, current: current, options: .init())
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testAnEmptyResultSetOnEitherSideIsRefused() {
        XCTAssertEqual(refusal(report([]), report([strategyResult()])),
                       "the baseline results are empty: nothing to compare; rerun bench run with at least one strategy")
        XCTAssertEqual(refusal(report([strategyResult()]), report([])),
                       "the current results are empty: nothing to compare; rerun bench run with at least one strategy")
    }

    /// Results schema 1 and 2 hold checksums of the earlier match digest: every row would read as matching
    /// differently, so the comparison is refused with the fix, on either side.
    func testResultsOfAnEarlierMatchDigestAreRefused() throws {
        var old = report([strategyResult()])
        old.schema = "trigger-bench-results/2"
        let text = try XCTUnwrap(refusal(old, report([strategyResult()])))
        XCTAssertEqual(text, "the baseline results (trigger-bench-results/2) hold checksums of an earlier match digest, which no trigger-bench-results/3 checksum can equal; record them again with this bench (bench gate --update, or bench run --json)")
        XCTAssertTrue(try XCTUnwrap(refusal(report([strategyResult()]), old)).hasPrefix("the current results (trigger-bench-results/2)"))
    }

    /// A baseline from before warm, time-targeted passes timed its rows otherwise: refused with the fix,
    /// before the field-by-field list (which would only say "none" against a number).
    func testABaselineTimedBeforeWarmPassesIsRefusedWithTheFix() throws {
        let text = try XCTUnwrap(refusal(report([strategyResult()]), report([strategyResult()], passSeconds: 0.1)))
        XCTAssertTrue(text.hasPrefix("refusing to compare: the baseline was timed before warm, time-targeted passes"), text)
        XCTAssertTrue(text.contains("bench gate … --update"), text)
        XCTAssertNoThrow(try Gate.compare(baseline: report([strategyResult()], passSeconds: 0.1), current: report([strategyResult()], passSeconds: 0.1), options: .init()))
        let longer = try XCTUnwrap(refusal(report([strategyResult()], passSeconds: 0.1), report([strategyResult()], passSeconds: 1)))
        XCTAssertTrue(longer.contains("pass_seconds (baseline 0.1, current 1.0)"), longer)
    }

    func testDifferentReferenceEventsAreRefusedNamingTheField() throws {
        let text = try XCTUnwrap(refusal(report([strategyResult()], referenceEvents: 5000), report([strategyResult()], referenceEvents: 50_000)))
        XCTAssertTrue(text.hasPrefix("refusing to compare runs made with different settings: reference_events (baseline 5000, current 50000)"), text)
        var options = Gate.Options()
        options.allowedDifferences = ["reference_events"]
        XCTAssertNoThrow(try Gate.compare(baseline: report([strategyResult()], referenceEvents: 5000),
                                          current: report([strategyResult()], referenceEvents: 50_000), options: options))
    }

    func testAKernelDifferenceIsANoteNotARefusal() throws {
        let result = try Gate.compare(baseline: report([strategyResult()], kernel: "6.18.44-fc-v782"),
                                      current: report([strategyResult()], kernel: "6.18.44-fc-v669"), options: .init())
        XCTAssertTrue(result.regressions.isEmpty)
        XCTAssertEqual(result.notes, [#"kernel differs: baseline "6.18.44-fc-v782", current "6.18.44-fc-v669""#])
    }

    /// Two schema-1 files (`bench check` of two old runs) share a digest: compared, with a note. Against a
    /// schema-3 run a schema-1 baseline is refused (`testResultsOfAnEarlierMatchDigestAreRefused`).
    func testTwoSchemaOneFilesAreComparedWithANote() throws {
        let result = try Gate.compare(baseline: report([strategyResult()], schema1: true), current: report([strategyResult()], schema1: true), options: .init())
        XCTAssertEqual(result.notes, ["the baseline results record no run settings (schema 1): settings not compared"])
        XCTAssertNotNil(refusal(report([strategyResult()], schema1: true), report([strategyResult()])))
    }

    func testEveryFieldARefusalNamesIsAccepted() {
        XCTAssertTrue(Gate.differenceFields.isSuperset(of: report([]).run!.settings.compared.map(\.name)))
        XCTAssertTrue(Gate.differenceFields.isSuperset(of: ["build", "swift", "jemalloc", "malloc_conf", "cpu", "cores", "delta_triggers"]))
    }

    func testAnotherCPUIsANoteUnlessWallClockIsEnforced() throws {
        var options = Gate.Options()
        options.wallClock = .informational
        let result = try Gate.compare(baseline: report([strategyResult()], cpu: "AMD EPYC"), current: report([strategyResult()], cpu: "Intel Xeon"),
                                      options: options)
        XCTAssertTrue(result.notes.contains { $0.hasPrefix("cpu differs") }, "\(result.notes)")
        options.wallClock = .enforce
        XCTAssertThrowsError(try Gate.compare(baseline: report([strategyResult()], cpu: "AMD EPYC"), current: report([strategyResult()], cpu: "Intel Xeon"),
                                              options: options))
    }

    func testANewBuildOfAPluginIsTheChangeUnderTest() throws {
        let result = try Gate.compare(baseline: report([strategyResult()], plugin: "aaaaaaaaaaaaaaaa"),
                                      current: report([strategyResult()], plugin: "bbbbbbbbbbbbbbbb"), options: .init())
        XCTAssertEqual(result.notes, ["plugin mine is another build (sha256 aaaaaaaaaaaa… in the baseline, bbbbbbbbbbbb… now): the change under test"])
    }

    /// A generated workload is identified by its spec's content, not its name: two specs named alike
    /// with the same seed and counts (a twin with its time moved, a preset with another `zipf`) are
    /// different workloads, refused (exit 2); the same spec is compared.
    func testSpecsThatShareANameButDifferAreRefused() throws {
        let tiny = try WorkloadSpec.load("tiny")
        var other = tiny
        other.zipf += 0.1
        func run(_ spec: WorkloadSpec) -> RunReport {
            var r = report([strategyResult()])
            r.workload = .init(spec, events: 100)
            return r
        }
        XCTAssertEqual(run(tiny).workload.specSha256, run(tiny).workload.specSha256)
        let text = try XCTUnwrap(refusal(run(tiny), run(other)))
        XCTAssertTrue(text.hasPrefix("the results replay different workloads: both are tiny seed 7, but their specs differ"), text)
        XCTAssertNil(refusal(run(tiny), run(tiny)))
        // A baseline written before spec digests is compared by name, with a note.
        var old = report([strategyResult()])
        old.workload = .init(name: "tiny", seed: 7, events: 100, triggers: run(tiny).workload.triggers)
        let result = try Gate.compare(baseline: old, current: run(tiny), options: .init())
        XCTAssertEqual(result.notes, ["the baseline results predate workload spec digests: the workloads are compared by name, seed and counts only"])
    }
}
