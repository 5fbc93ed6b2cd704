/// Buckets a delta snapshot rebuilt instead of layering (docs/deltas.md): every live condition filed
/// under a bucket the history since the base touched, numbered after the base's own buckets. The
/// snapshot's bucket lookups send events straight to them, so the base's stale runs are never reached
/// and nothing is masked, stamped or searched per event.
///
/// `program` holds copies of what those entries read (`PredicateProgram.gathering`): the base's clauses
/// for its live conditions, and the pending triggers' freshly compiled ones. The base's regexes keep
/// their memo slots; the pending ones are searched every time, as in the overlay (`Code.regexSearch`).
package final class RedirectedRuns: Sendable {
    let program: PredicateProgram
    let entries: FrozenBuffer<PredicateProgram.Entry>
    /// Bucket `firstBucket + k` is `entries[start[k]..<start[k + 1]]`.
    let start: FrozenBuffer<Int32>
    let firstBucket: Int32

    init(program: PredicateProgram, entries: FrozenBuffer<PredicateProgram.Entry>, start: FrozenBuffer<Int32>, firstBucket: Int32) {
        self.program = program
        self.entries = entries
        self.start = start
        self.firstBucket = firstBucket
    }

    /// Scans bucket `bucket` (at least `firstBucket`) for event `i`, as a base scans its own runs.
    @inline(never)
    func scan(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let k = Int(bucket &- firstBucket), first = Int(start[k])
        program.tables.screenAndEvaluate(entries.base + first, count: Int(start[k + 1]) &- first, i, events, scratch) { $0 }
    }
}
