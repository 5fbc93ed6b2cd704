import TriggerKit

/// The match-and-sum loop of the unpublished timed readers, the untimed cross-checks and the region
/// callgrind counts, specialised per strategy (no existential dispatch per event). Readers of a
/// published matcher use `ReaderWorker.replayWhileCurrent`, which checks for a newer snapshot
/// between events and so cannot share it.
enum ReplayLoop {
    @inline(__always)
    static func matchAndSum<M: Matcher>(_ matcher: M, _ view: EventView, _ range: Range<Int>, _ scratch: MatchScratch,
                                        into sum: inout MatchChecksum) {
        for e in range {
            matcher.match(e, in: view, scratch: scratch)
            sum.add(matchesOf: e, in: scratch)
        }
    }

    /// Matching alone: warm passes (memo tables, lazily built indexes, caches) and the allocation count.
    @inline(__always)
    static func matchOnly<M: Matcher>(_ matcher: M, _ view: EventView, _ range: Range<Int>, _ scratch: MatchScratch) {
        for e in range { matcher.match(e, in: view, scratch: scratch) }
    }

    /// Order-independent checksum of the matches over `range` (untimed).
    static func checksum(_ matcher: some Matcher, _ view: EventView, _ range: Range<Int>, _ scratch: MatchScratch) -> MatchChecksum {
        var sum = MatchChecksum()
        matchAndSum(matcher, view, range, scratch, into: &sum)
        return sum
    }
}
