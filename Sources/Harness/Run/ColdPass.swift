import Histogram
import TriggerKit

/// Single events timed cold for every strategy of a run (`--cold-events`), interleaved: event k of
/// each strategy in turn, each behind its own eviction, so a spell of memory contention from the
/// host's other tenants (every cold miss goes to DRAM) falls on every strategy alike, as the timed
/// repetitions are interleaved for the same reason.
enum ColdPass {
    /// Each strategy's percentiles by name: `count` events (fewer when it replays fewer) spread evenly
    /// over the events it replays.
    static func measure(_ built: [BuiltStrategy], events: EventColumns, count: Int, clock: CycleClock,
                        eviction: CacheEviction) throws -> [String: EventLatency] {
        guard count > 0 else { return [:] }
        let scratches = built.map { $0.matcher.makeScratch(for: events) }
        var histograms = built.map { _ in EventLatency.emptyHistogram() }
        var recorded = built.map { _ in 0 }
        let counts = built.map { min(count, $0.count) }
        events.withView { view in
            for k in 0..<count {
                for (s, b) in built.enumerated() where k < counts[s] {
                    eviction.evict()
                    let ticks = time(b.matcher, k * b.count / counts[s], view, scratches[s])
                    if histograms[s].record(clock.sample(ticks)) { recorded[s] += 1 }
                }
            }
        }
        var out: [String: EventLatency] = [:]
        for (s, b) in built.enumerated() where counts[s] > 0 {
            if let foreign = b.matcher as? any ForeignMatcher {
                let invalid = foreign.faults(in: scratches[s])
                if invalid.count > 0 {
                    throw MatchedWrongly(description: "\(b.name): its match broke the plugin ABI \(invalid.count) times in the cold pass (first: \(invalid.first)); \(foreign.remedy)")
                }
            }
            var cold = EventLatency.summary(histograms[s], recorded: recorded[s], clock: clock)
            cold.evictedBytes = eviction.bytes
            out[b.name] = cold
        }
        return out
    }

    /// One event's ticks through the matcher, specialised per strategy like the warm single events.
    @inline(__always)
    static func time<M: Matcher>(_ matcher: M, _ event: Int, _ view: EventView, _ scratch: MatchScratch) -> UInt64 {
        let t0 = CycleClock.begin()
        matcher.match(event, in: view, scratch: scratch)
        return CycleClock.end() &- t0
    }
}
