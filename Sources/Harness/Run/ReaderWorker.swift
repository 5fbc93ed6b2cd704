import Foundation
import Histogram
import TriggerKit

/// One reader thread's share of a timed run: a disjoint slice of events, its own scratch and histogram.
final class ReaderWorker: @unchecked Sendable {
    let range: Range<Int>
    let events: EventColumns
    /// Made from the configuration's initial matcher and kept for the snapshots a writer publishes while
    /// `canReuseScratch` says it serves them (a rebuild of the same set, or a delta snapshot of the same
    /// family); otherwise a new one is made when the reader moves to the snapshot (an allocation per
    /// switch, never per event).
    private(set) var scratch: MatchScratch
    /// The matcher `scratch` was made by.
    private var scratchOwner: any Matcher
    var histogram = ReaderWorker.emptyHistogram()
    var checksum = MatchChecksum()
    var candidates = 0
    var cpuSeconds = 0.0
    var wallSeconds = 0.0

    /// Picoseconds per event of a batch, up to 100 s (a row's readers' histograms are merged).
    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 100_000_000_000_000, numberOfSignificantValueDigits: .three)
    }

    init(range: Range<Int>, matcher: some Matcher, events: EventColumns) {
        self.range = range
        self.events = events
        scratch = matcher.makeScratch(for: events)
        scratchOwner = matcher
    }

    /// A foreign matcher's ABI faults counted in scratches this reader has since replaced (a delta
    /// snapshot's scratch goes when the reader moves on; its faults must not go with it).
    private var retiredFaults = ABIFaults()

    /// The ABI faults of a foreign matcher (a plugin) over every scratch this reader has used.
    var faults: ABIFaults { retiredFaults.adding((scratchOwner as? any ForeignMatcher)?.faults(in: scratch) ?? ABIFaults()) }

    /// Keeps the scratch for `matcher` if it serves it, else makes one (carrying the candidate count
    /// and the plugin's fault count).
    func adopt(_ matcher: any Matcher) {
        if matcher.canReuseScratch(of: scratchOwner) { return }
        retiredFaults = faults
        let candidates = scratch.candidates
        scratch = matcher.makeScratch(for: events)
        scratch.candidates = candidates
        scratchOwner = matcher
    }

    /// Replays the slice in batches; each batch's time divided by its size is one histogram sample
    /// (in picoseconds per event), since timing each event alone would cost more than matching it.
    /// `slowdown`: a fraction of each batch's time to busy-wait inside the timed region (calibration).
    func run(source: PublishedMatcher, batchSize: Int, slowdown: Double = 0, counter: ProgressCounter, progress: (() -> Void)?) {
        let cpuStart = Clock.threadCPUSeconds()
        let wallStart = Clock.now()
        scratch.candidates = 0
        // A local checksum: a class property would pay a dynamic exclusivity check per match.
        var sum = MatchChecksum()
        // Decided once: a matcher with a batch entry point (a plugin's `match_batch`) is handed whole batches.
        let batching = source.plain as? BatchMatching
        events.withView { view in
            var reader = source.makeReader()
            var seenVersion = reader.current().version
            adopt(reader.current().matcher)
            var i = range.lowerBound
            var batches = 0
            while i < range.upperBound {
                let stop = min(i + batchSize, range.upperBound)
                let t0 = Clock.now()
                if source.publication == .none {
                    if let batching {
                        batching.matchBatch(i..<stop, in: view, scratch: scratch, into: &sum)
                    } else {
                        sum = replay(source.plain, view, i..<stop, sum)
                    }
                } else {
                    // Each event is matched with the newest snapshot: before every event the reader checks
                    // the version, and a published set is used from the next event on.
                    var e = i
                    while e < stop {
                        let snapshot = reader.current()
                        if snapshot.version != seenVersion {
                            seenVersion = snapshot.version
                            adopt(snapshot.matcher)
                        }
                        (e, sum) = replayWhileCurrent(snapshot.matcher, view, e, stop, reader, sum)
                    }
                }
                var t1 = Clock.now()
                if slowdown > 0 {
                    // Busy, not asleep: the added time behaves like matching work on a shared CPU.
                    let until = t1 &+ UInt64(Double(t1 &- t0) * slowdown)
                    while t1 < until { t1 = Clock.now() }
                }
                _ = histogram.record((t1 &- t0) &* 1000 / UInt64(stop - i))
                i = stop
                batches += 1
                if batches & 255 == 0 {
                    counter.add(256 * batchSize)
                    progress?()
                }
            }
        }
        checksum = sum
        candidates = scratch.candidates
        cpuSeconds += Clock.threadCPUSeconds() - cpuStart
        wallSeconds = Clock.seconds(since: wallStart)
    }

    /// The publication loop: matches from `start` while the reader's snapshot stays the newest, checking
    /// before each event after the first; returns where it stopped. Opening the matcher once per call
    /// keeps reference counting (a shared cache line) out of the per-event path.
    @inline(__always)
    func replayWhileCurrent<M: Matcher>(_ matcher: M, _ view: EventView, _ start: Int, _ stop: Int, _ reader: PublishedMatcher.Reader,
                                        _ initial: MatchChecksum) -> (Int, MatchChecksum) {
        var sum = initial
        let scratch = self.scratch
        var e = start
        repeat {
            matcher.match(e, in: view, scratch: scratch)
            sum.add(matchesOf: e, in: scratch)
            e += 1
        } while e < stop && reader.isCurrent()
        return (e, sum)
    }

    /// The unpublished loop: one matcher for the whole batch.
    @inline(__always)
    func replay<M: Matcher>(_ matcher: M, _ view: EventView, _ range: Range<Int>, _ start: MatchChecksum) -> MatchChecksum {
        var sum = start
        ReplayLoop.matchAndSum(matcher, view, range, scratch, into: &sum)
        return sum
    }
}
