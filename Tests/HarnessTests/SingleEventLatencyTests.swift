import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// Per-event percentiles, intervals and per-strategy memory, measured for real on a small workload.
final class SingleEventLatencyTests: XCTestCase {
    /// A few hundred events hit a name crowded with 1,500 triggers; the rest are cheap. Batch means
    /// average the tail away; events timed alone show it.
    func testSingleEventPercentilesAreMeasuredOnThePlainRow() throws {
        var spec = WorkloadSpec()
        spec.name = "heavy-tail"
        spec.events = 20_000
        spec.triggers = 100
        spec.eventNames = 400
        spec.crowdedTriggers = 1500
        var configuration = RunConfiguration.small(spec, strategies: ["compiled"], events: 1000, repetitions: 2)
        configuration.warmupEvents = 2000
        configuration.latencyEvents = 20_000
        let report = try Runner(configuration).run()
        let row = try XCTUnwrap(report.results.first)
        let single = try XCTUnwrap(row.latencyNs)
        XCTAssertEqual(single.samples, 20_000)
        // The figures' shape, not their size (how far the tail stands out is a measurement the harness
        // prints, not a threshold a unit test can hold on a shared host).
        XCTAssertTrue(single.p50 <= single.p90 && single.p90 <= single.p99 && single.p99 <= single.p999 && single.p999 <= single.max, "\(single)")
        XCTAssertGreaterThan(single.p50, 0)
        XCTAssertGreaterThanOrEqual(single.timerOverhead, 0)
        XCTAssertGreaterThan(try XCTUnwrap(single.timerResolution), 0)
        // One mean per row: inside its own interval and between its fastest and slowest repetition.
        let ci = try XCTUnwrap(row.timing.meanCi95), samples = try XCTUnwrap(row.timing.nsPerEventSamples)
        let mean = row.timing.nsPerEvent.mean
        XCTAssertTrue(ci[0] <= mean && mean <= ci[1], "mean \(mean), interval \(ci)")
        XCTAssertTrue(samples.min()! <= mean && mean <= samples.max()!, "mean \(mean), repetitions \(samples)")
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
