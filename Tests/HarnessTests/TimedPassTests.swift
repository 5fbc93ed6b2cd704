import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// How rows are timed: a warm-up before each pass, passes that loop a short log to a length, cold
/// single events, and the flags that say a row's figure is doubtful, each made to happen for real.
final class TimedPassTests: XCTestCase {
    static func tiny(events: Int) throws -> WorkloadSpec {
        var spec = try WorkloadSpec.load("tiny")
        spec.events = events
        return spec
    }

    func testAShortLogIsReplayedUntilThePassLastsAndTheResultsSaySo() throws {
        var c = RunConfiguration.small(try Self.tiny(events: 500), strategies: ["compiled", "floor"], events: 500, repetitions: 2)
        c.passSeconds = 0.05
        c.warmupSeconds = 0.005
        let report = try Runner(c).run()
        var once = c
        once.passSeconds = 0
        let single = try Runner(once).run()
        for (row, plain) in zip(report.results, single.results) {
            let passes = try XCTUnwrap(row.passes, row.strategy)
            // 500 events of `tiny` take microseconds: only loops make 50 ms.
            XCTAssertGreaterThan(passes.loops, 10, row.strategy)
            XCTAssertEqual(passes.eventsPerPass, 500 * passes.loops)
            XCTAssertEqual(passes.seconds.count, 2)
            // How long a pass lasts is the host's to say (a loaded host's slow warm-up sets fewer loops);
            // that each repetition's mean is its pass's seconds over its events is the harness's.
            for (seconds, mean) in zip(passes.seconds, try XCTUnwrap(row.timing.nsPerEventSamples)) {
                XCTAssertEqual(seconds * 1e9 / Double(passes.eventsPerPass), mean, accuracy: mean * 1e-9, row.strategy)
            }
            XCTAssertGreaterThanOrEqual(passes.warmupSeconds, 0.005)
            XCTAssertEqual(passes.involuntarySwitches.count, 2)
            // 500 events to a replay, 1,024 to a batch: a batch holds two whole replays.
            XCTAssertEqual(passes.outliers.samples, 2 * ((passes.loops + 1) / 2), "batches of two replays, in each of two passes")
            // One replay's matches, whatever the loops: the same as a pass of one replay.
            XCTAssertEqual(row.matches.checksum, plain.matches.checksum, row.strategy)
            XCTAssertEqual(row.matches.matches, plain.matches.matches)
            XCTAssertEqual(row.matches.candidatesPerEvent, plain.matches.candidatesPerEvent, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(plain.passes).loops, 1)
            XCTAssertEqual(row.timing.eventsPerSecond * row.timing.wallSeconds, Double(2 * passes.eventsPerPass), accuracy: 1)
        }
        XCTAssertEqual(report.run?.settings.passSeconds, 0.05)
        XCTAssertEqual(report.run?.settings.warmupSeconds, 0.005)
        XCTAssertTrue(report.table().contains("loops"), report.table())
        XCTAssertTrue(report.table().contains("warm-up"), report.table())
        // A pass of one replay of 500 events is far under the 5 ms a pass needs: flagged short.
        XCTAssertTrue(try XCTUnwrap(single.results.first?.passes).flags.contains("short"))
        XCTAssertTrue(single.table().contains("S = short"), single.table())
    }

    func testMoreReadersThanCoresAreFlaggedPreempted() throws {
        let threads = 2 * ProcessInfo.processInfo.activeProcessorCount + 1
        var c = RunConfiguration.small(try Self.tiny(events: 20_000), strategies: ["compiled"], events: 2000)
        c.threads = [threads]
        c.passSeconds = 0.2
        let row = try XCTUnwrap(Runner(c).run().results.first)
        let passes = try XCTUnwrap(row.passes)
        // Each reader can hold a core at most cores/threads of the pass.
        XCTAssertLessThan(passes.cpuShare, 0.9, "\(passes)")
        XCTAssertTrue(passes.flags.contains("preempted"), "\(passes)")
        XCTAssertGreaterThan(passes.involuntarySwitches.reduce(0, +), 0, "\(passes)")
    }

    func testColdEventsAreTimedAfterEvictingTheCaches() throws {
        var c = RunConfiguration.small(try Self.tiny(events: 5000), strategies: ["compiled"], events: 5000)
        c.coldEvents = 30
        c.latencyEvents = 5000
        let report = try Runner(c).run()
        let row = try XCTUnwrap(report.results.first)
        let cold = try XCTUnwrap(row.coldLatencyNs), warm = try XCTUnwrap(row.latencyNs)
        XCTAssertEqual(cold.samples, 30)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(cold.evictedBytes), CacheEviction.lastLevelCacheBytes() ?? 0)
        XCTAssertNil(warm.evictedBytes)
        XCTAssertTrue(cold.p50 <= cold.p90 && cold.p90 <= cold.max, "\(cold)")
        // Cache misses on every table the event touches, against none: not a threshold on a size, only
        // that the eviction did something at all.
        XCTAssertGreaterThan(cold.p50, warm.p50, "cold \(cold), warm \(warm)")
        XCTAssertTrue(report.table().contains("cold p50"), report.table())
        let decoded = try RunReport.decode([UInt8](try report.json()), file: "results.json")
        XCTAssertEqual(decoded.results.first?.coldLatencyNs, cold)
        XCTAssertEqual(decoded.results.first?.passes, row.passes)
    }

    func testTukeysFencesCountOutliersAndFlagARowWithManySevereOnes() {
        // Batch times over their batch's median: undisturbed ones within 5 %.
        var ratios = (0..<1000).map { 0.95 + Double($0) / 10_000 }   // quartiles about 0.975 and 1.025
        ratios += Array(repeating: 40, count: 80)                    // preempted batches: severe
        ratios += Array(repeating: 1.12, count: 5)                   // past 1.5 IQR, within 3: mild
        let o = OutlierCounts.classify(ratios)
        XCTAssertEqual(o.samples, 1085)
        XCTAssertEqual(o.highSevere, 80, "\(o)")
        XCTAssertEqual(o.highMild, 5, "\(o)")
        XCTAssertEqual(o.lowSevere + o.lowMild, 0, "\(o)")
        let flags = PassFigures.flags(cpuShare: 1, outliers: o, seconds: [0.1], mean: 100, interval: [99, 101])
        XCTAssertEqual(flags, ["outliers"])
        XCTAssertEqual(PassFigures.flags(cpuShare: 0.5, outliers: OutlierCounts(samples: 10), seconds: [0.1], mean: 100, interval: [70, 130]),
                       ["preempted", "wide"])
        // Too short to time is too short to judge its CPU share: the clock reads around it count.
        XCTAssertEqual(PassFigures.flags(cpuShare: 0.5, outliers: OutlierCounts(samples: 10), seconds: [0.001], mean: 100, interval: [99, 101]),
                       ["short"])
        // Batches all timed alike (a spread of 0): only the far one is an outlier.
        XCTAssertEqual(OutlierCounts.classify(Array(repeating: 1, count: 50) + [1.005, 0.995, 3]).severe, 1)
        XCTAssertEqual(OutlierCounts.classify([1, 1, 9]).total, 0, "too few to classify")
    }

    func testTheTimerStepIsTheGapBetweenClustersOfDifferences() {
        // A virtualised counter stepping by 24.5 ticks, a few readings off its grid.
        let stepped = Array(repeating: UInt64(49), count: 600) + Array(repeating: 73, count: 200) + Array(repeating: 74, count: 200)
            + Array(repeating: 98, count: 300) + [51, 60, 77]
        XCTAssertEqual(CycleClock.step(of: stepped), 24.5, accuracy: 0.6)
        // A fine counter: differences in one unbroken run.
        XCTAssertEqual(CycleClock.step(of: (0..<2000).map { 120 + UInt64($0 % 80) }), 1)
        XCTAssertEqual(CycleClock.step(of: []), 0)
    }
}
