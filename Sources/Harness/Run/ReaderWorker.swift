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
    /// Each timed batch's ns per event, in order over every pass (capacity reserved before a pass, so
    /// recording never allocates in the timed region), for telling disturbed batches from costly ones.
    private(set) var batchTimes: [Float] = []
    /// Batches in one replay of the slice: batch k of any pass replays the events of batch k % this
    /// (1 when a batch holds several whole replays of a short slice).
    var batchesPerLoop = 1
    /// At most this many batch times are kept (16 MB); later ones go only into the histogram.
    static let maxBatchTimes = 1 << 22
    var checksum = MatchChecksum()
    var candidates = 0
    var cpuSeconds = 0.0
    var wallSeconds = 0.0
    /// Involuntary context switches during the last pass.
    var involuntarySwitches = 0
    /// Loops of the last pass whose matches differed from its first loop's (must stay 0).
    var unequalLoops = 0

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

    /// Untimed: replays the slice from its start, looping, until `seconds` have passed (checked every
    /// `warmBatch` events, so a slow matcher does not overshoot by a whole timed batch), with the
    /// matcher the source holds now. Returns the events matched and the seconds they took, from
    /// which the first repetition sets the loop count.
    func warm(source: PublishedMatcher, seconds: Double, batchSize: Int) -> (events: Int, seconds: Double) {
        guard seconds > 0, !range.isEmpty else { return (0, 0) }
        var reader = source.makeReader()
        let matcher = reader.current().matcher
        adopt(matcher)
        let start = Clock.now(), until = start &+ UInt64(seconds * 1e9)
        var matched = 0
        events.withView { view in
            var i = range.lowerBound
            repeat {
                let stop = min(i + min(batchSize, Self.warmBatch), range.upperBound)
                ReplayLoop.matchOnly(matcher, view, i..<stop, scratch)
                matched += stop - i
                i = stop == range.upperBound ? range.lowerBound : stop
            } while Clock.now() < until
        }
        return (matched, Clock.seconds(since: start))
    }

    static let warmBatch = 64

    /// Replays the slice `loops` times in batches; each batch's time divided by its size is one
    /// histogram sample (in picoseconds per event), since timing each event alone would cost more than
    /// matching it. A batch never holds part of two loops (it is part of one, or several whole ones), so
    /// each loop's matches are summed apart: every loop must match like the first (`unequalLoops`),
    /// and `checksum` and `candidates` are one loop's.
    /// `slowdown`: a fraction of each batch's time to busy-wait inside the timed region (calibration).
    func run(source: PublishedMatcher, batchSize: Int, loops: Int = 1, slowdown: Double = 0, counter: ProgressCounter, progress: (() -> Void)?) {
        let usageStart = ThreadUsage.now()
        let cpuStart = Clock.threadCPUSeconds()
        let wallStart = Clock.now()
        scratch.candidates = 0
        var first = MatchChecksum()
        unequalLoops = 0
        // Decided once: a matcher with a batch entry point (a plugin's `match_batch`) is handed whole batches.
        let batching = source.plain as? BatchMatching
        // A slice shorter than a batch is timed several whole replays to a batch, so a batch's clock
        // reads and bookkeeping stay a small part of what it times.
        let slice = range.count
        let group = slice == 0 || slice >= batchSize ? 1 : batchSize / slice
        batchesPerLoop = group > 1 ? 1 : max(1, (slice + batchSize - 1) / batchSize)
        let batchesPerPass = group > 1 ? (loops + group - 1) / group : batchesPerLoop * loops
        let kept = min(batchesPerPass, Self.maxBatchTimes - batchTimes.count)
        if kept > 0 { batchTimes.reserveCapacity(batchTimes.count + kept) }
        let keepUntil = batchTimes.count + max(kept, 0)
        events.withView { view in
            var reader = source.makeReader()
            var seenVersion = reader.current().version
            adopt(reader.current().matcher)
            var batches = 0, unreported = 0
            // Matches events `i..<stop` into `sum`; with publication, each with the newest snapshot:
            // before every event the reader checks the version, and a published set is used from the
            // next event on.
            func span(_ i: Int, _ stop: Int, _ sum: inout MatchChecksum) {
                if source.publication == .none {
                    if let batching {
                        batching.matchBatch(i..<stop, in: view, scratch: scratch, into: &sum)
                    } else {
                        sum = replay(source.plain, view, i..<stop, sum)
                    }
                } else {
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
            }
            func ended(_ loop: Int, _ sum: MatchChecksum) {
                if loop == 0 { first = sum } else if sum != first { unequalLoops += 1 }
            }
            func record(since t0: UInt64, events n: Int) {
                var t1 = Clock.now()
                if slowdown > 0 {
                    // Busy, not asleep: the added time behaves like matching work on a shared CPU.
                    let until = t1 &+ UInt64(Double(t1 &- t0) * slowdown)
                    while t1 < until { t1 = Clock.now() }
                }
                _ = histogram.record((t1 &- t0) &* 1000 / UInt64(n))
                if batchTimes.count < keepUntil { batchTimes.append(Float(t1 &- t0) / Float(n)) }
                unreported += n
                batches += 1
                if batches & 255 == 0 {
                    counter.add(unreported)
                    unreported = 0
                    progress?()
                }
            }
            var loop = 0
            while loop < loops {
                if group == 1 {
                    // A local checksum: a class property would pay a dynamic exclusivity check per match.
                    var sum = MatchChecksum()
                    var i = range.lowerBound
                    while i < range.upperBound {
                        let stop = min(i + batchSize, range.upperBound)
                        let t0 = Clock.now()
                        span(i, stop, &sum)
                        record(since: t0, events: stop - i)
                        i = stop
                    }
                    ended(loop, sum)
                    loop += 1
                } else {
                    let end = min(loop + group, loops), t0 = Clock.now()
                    for l in loop..<end {
                        var sum = MatchChecksum()
                        span(range.lowerBound, range.upperBound, &sum)
                        ended(l, sum)
                    }
                    record(since: t0, events: (end - loop) * slice)
                    loop = end
                }
            }
        }
        checksum = first
        candidates = scratch.candidates / max(loops, 1)
        cpuSeconds += Clock.threadCPUSeconds() - cpuStart
        wallSeconds = Clock.seconds(since: wallStart)
        involuntarySwitches = (ThreadUsage.now() - usageStart).involuntarySwitches
    }

    /// Each kept batch's time over the median of the same batch's times (the same events, in other loops
    /// and repetitions): 1 for an undisturbed batch whatever its events cost, far above 1 for one that
    /// was preempted or interrupted. Batches seen once give no ratio.
    func disturbance() -> [Double] {
        let positions = batchesPerLoop
        var byPosition = [[Float]](repeating: [], count: positions)
        for (k, t) in batchTimes.enumerated() { byPosition[k % positions].append(t) }
        var ratios: [Double] = []
        for times in byPosition where times.count > 1 {
            let median = Double(Statistics.median(times.map(Double.init)))
            guard median > 0 else { continue }
            ratios += times.map { Double($0) / median }
        }
        return ratios
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
