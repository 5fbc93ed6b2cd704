import Foundation
@testable import Harness
import TriggerKit
import Workload
import XCTest

/// Per-event percentiles, intervals and per-strategy memory, measured for real on a small workload.
final class SingleEventLatencyTests: XCTestCase {
    /// A few hundred events hit a name crowded with 1,500 triggers; the rest are cheap. Batch means
    /// average the tail away; events timed alone show it.
    func testSingleEventPercentilesShowTheTailThatBatchMeansHide() throws {
        var spec = WorkloadSpec()
        spec.name = "heavy-tail"
        spec.events = 20_000
        spec.triggers = 100
        spec.eventNames = 400
        spec.crowdedTriggers = 1500
        var configuration = RunConfiguration(workload: spec)
        configuration.strategies = ["compiled"]
        configuration.repetitions = 2
        configuration.warmupEvents = 2000
        configuration.allocationEvents = 1000
        configuration.referenceEvents = 1000
        configuration.latencyEvents = 20_000
        let report = try Runner(configuration).run()
        let row = try XCTUnwrap(report.results.first)
        let single = try XCTUnwrap(row.latencyNs)
        XCTAssertEqual(single.samples, 20_000)
        // Most events are cheap and a few very dear: the median event costs a small part of a batch's
        // mean, and the dearest single events cost more than any batch's mean shows.
        XCTAssertLessThan(10 * single.p50, row.timing.nsPerEvent.p50, "single events: \(single); batches: \(row.timing.nsPerEvent)")
        XCTAssertGreaterThan(single.p999, row.timing.nsPerEvent.max, "single events: \(single); batches: \(row.timing.nsPerEvent)")
        XCTAssertLessThan(single.p999, single.max)
        XCTAssertGreaterThan(single.timerOverhead, 0)
        let ci = try XCTUnwrap(row.timing.meanCi95)
        XCTAssertLessThanOrEqual(ci[0], ci[1])
        if AllocatorStats.version != nil {  // test bundles run without jemalloc (ThreadSanitizer brings its own allocator)
            XCTAssertGreaterThan(try XCTUnwrap(row.memory.matcherBytes), 0)
        }
        XCTAssertNotNil(report.run?.settings)
        XCTAssertEqual(report.run?.settings.latencyEvents, 20_000)
        XCTAssertNotNil(report.jemalloc?.afterBuild["compiled"])
    }

    func testBootstrapIntervalsBracketTheStatisticAndNeedTwoSamples() {
        XCTAssertNil(Bootstrap.interval([5], statistic: Bootstrap.mean))
        let ci = Bootstrap.interval([10, 11, 9, 10.5, 9.5], statistic: Bootstrap.mean)!
        XCTAssertLessThanOrEqual(ci[0], 10)
        XCTAssertGreaterThanOrEqual(ci[1], 10)
        XCTAssertGreaterThanOrEqual(ci[0], 9)
        XCTAssertLessThanOrEqual(ci[1], 11)
        XCTAssertEqual(Bootstrap.interval([10, 11, 9], statistic: Bootstrap.mean), Bootstrap.interval([10, 11, 9], statistic: Bootstrap.mean), "seeded")
    }
}

/// `bench check` compares like with like.
final class GateComparabilityTests: XCTestCase {
    func report(_ results: [StrategyResult], kernel: String = "k", referenceEvents: Int = 5000, schema1: Bool = false) -> RunReport {
        let settings = RunMetadata.Settings(
            strategies: ["compiled"], threads: [1], publications: ["none"], publishEveryMs: nil, prebuiltSets: false, events: 100,
            referenceEvents: referenceEvents, batchSize: 1024, warmupEvents: 100_000, allocationEvents: 50_000, latencyEvents: 100_000,
            repetitions: 5)
        let run = RunMetadata(timestamp: "2026-11-23T00:00:00Z", commit: nil, dirty: nil, label: nil, host: "h", command: ["bench"],
                              settings: settings, noise: .init())
        return RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: kernel, swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                         workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results, run: schema1 ? nil : run)
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

    func testASchemaOneBaselineIsComparedWithANote() throws {
        let result = try Gate.compare(baseline: report([strategyResult()], schema1: true), current: report([strategyResult()]), options: .init())
        XCTAssertEqual(result.notes, ["the baseline results record no run settings (schema 1): settings not compared"])
    }
}

/// The wall-clock tier says when its samples are too few to ever be significant.
final class WallClockSampleSizeTests: XCTestCase {
    func testTheSmallestPossiblePValueOfSmallSamples() {
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 3, n2: 3), 0.1, accuracy: 1e-12)
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 4, n2: 4), 2.0 / 70, accuracy: 1e-12)
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 5, n2: 5), 2.0 / 252, accuracy: 1e-12)
    }

    func testThreeRepetitionsEachAreReportedAsUntestableNotAsUnchanged() throws {
        let slow = strategyResult(samples: [20, 21, 22]), fast = strategyResult(samples: [10, 10.5, 11])
        let finding = try XCTUnwrap(Gate.compareRow("r", fast, slow, options: .init()).last)
        XCTAssertEqual(finding.verdict, .informational)
        XCTAssertEqual(finding.note, "3 vs 3 samples cannot reach p < 0.01: no test possible (record both with --repetitions 5 or more)")
    }
}
