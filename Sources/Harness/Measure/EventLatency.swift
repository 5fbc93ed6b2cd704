import Histogram
import TriggerKit

/// Percentiles of single events (not of batch means): each event is timed alone with the CPU's tick
/// counter, the counter's own cost subtracted.
package struct EventLatency: Codable, Sendable, Equatable {
    package var p50, p90, p99, p999, max: Double
    /// Events timed.
    package var samples: Int
    /// The cost of one begin/end reading, subtracted from each sample (ns).
    package var timerOverhead: Double
    /// The counter read: rdtsc, cntvct_el0 or clock_gettime.
    package var timer: String
    /// The smallest step the counter can show (ns): no figure is finer than this. Nil in older files.
    package var timerResolution: Double?
    /// Cold measurements only: the bytes read between events to evict the caches (nil: a warm pass).
    package var evictedBytes: Int?

    /// Times `count` events of `view` through `matcher` one at a time (1 thread, no publication),
    /// after one untimed pass over them.
    /// `progress` is told the events timed so far every 1,024, between two timings.
    static func measure(_ matcher: some Matcher, view: EventView, scratch: MatchScratch, count: Int, clock: CycleClock,
                        progress: ((Int) -> Void)? = nil) -> EventLatency {
        var histogram = emptyHistogram()
        ReplayLoop.matchOnly(matcher, view, 0..<count, scratch)
        var recorded = 0
        for i in 0..<count {
            let t0 = CycleClock.begin()
            matcher.match(i, in: view, scratch: scratch)
            let t1 = CycleClock.end()
            if histogram.record(clock.sample(t1 &- t0)) { recorded += 1 }
            if let progress, i & 1023 == 1023 {
                progress(i + 1)
                // The next event, untimed first: it is then timed on caches the call did not leave cold.
                if i + 1 < count { matcher.match(i + 1, in: view, scratch: scratch) }
            }
        }
        return summary(histogram, recorded: recorded, clock: clock)
    }

    /// Ticks per event, up to 2^50 (a reading that went backwards lands beyond it and is not recorded).
    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 1 << 50, numberOfSignificantValueDigits: .three)
    }

    static func summary(_ histogram: Histogram<UInt64>, recorded: Int, clock: CycleClock) -> EventLatency {
        let ns = { (ticks: UInt64) in Double(ticks) * clock.nanosecondsPerTick }
        return EventLatency(
            p50: ns(histogram.valueAtPercentile(50)), p90: ns(histogram.valueAtPercentile(90)),
            p99: ns(histogram.valueAtPercentile(99)), p999: ns(histogram.valueAtPercentile(99.9)),
            max: ns(histogram.max), samples: recorded, timerOverhead: clock.overheadNanoseconds, timer: clock.source,
            timerResolution: clock.resolutionNanoseconds)
    }
}
