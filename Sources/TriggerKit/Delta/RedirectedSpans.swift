/// Buckets a delta snapshot rebuilt instead of layering (docs/deltas.md): every live condition filed
/// under a bucket the history since the base touched, numbered after the base's own buckets. The
/// snapshot's bucket lookups send events straight to them, so the base's stale spans are never reached
/// and nothing is masked, stamped or searched per event.
///
/// Each bucket's span is two parts: the base's compiled entries of its live conditions, copied as they
/// are and evaluated against the base's program (its regexes keep their memo slots), then the pending
/// triggers' entries, compiled alone (their regexes are searched every time, as in the overlay). The
/// base's clauses are never copied: a delta costs the entries it moves, not what they read.
package final class RedirectedSpans: @unchecked Sendable {
    /// Kept alive for `baseTables` and `pendingTables`, which matching reads (no reference counting).
    let baseProgram: PredicateProgram
    let pendingProgram: PredicateProgram
    let baseTables: PredicateProgram.Tables
    let pendingTables: PredicateProgram.Tables
    let entries: FrozenBuffer<PredicateProgram.Entry>
    /// Bucket `firstBucket + k` is `entries[start[k]..<start[k + 1]]`; its pending part starts at `split[k]`.
    let start: FrozenBuffer<Int32>
    let split: FrozenBuffer<Int32>
    let firstBucket: Int32

    init(baseProgram: PredicateProgram, pendingProgram: PredicateProgram, entries: FrozenBuffer<PredicateProgram.Entry>,
         start: FrozenBuffer<Int32>, split: FrozenBuffer<Int32>, firstBucket: Int32) {
        self.baseProgram = baseProgram
        self.pendingProgram = pendingProgram
        baseTables = baseProgram.tables
        pendingTables = pendingProgram.tables
        self.entries = entries
        self.start = start
        self.split = split
        self.firstBucket = firstBucket
    }

    /// Scans bucket `bucket` (at least `firstBucket`) for event `i`, as a base scans its own spans.
    @inline(never)
    func scan(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let k = Int(bucket &- firstBucket)
        let first = Int(start[k]), middle = Int(split[k]), end = Int(start[k + 1])
        if middle > first { baseTables.screenAndEvaluate(entries.base + first, count: middle &- first, i, events, scratch) { $0 } }
        if end > middle { pendingTables.screenAndEvaluate(entries.base + middle, count: end &- middle, i, events, scratch) { $0 } }
    }
}
