import TriggerKit

/// The one match-and-sum loop: the timed readers, the untimed cross-checks and the region callgrind
/// counts all run this, specialised per strategy (no existential dispatch per event).
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
