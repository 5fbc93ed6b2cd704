import CPrefetch

/// `compiled` (SPEC §4): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
public struct CompiledMatcher: Matcher {
    public static let strategyName = "compiled"
    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram
    /// Per bucket, one run of entries holding the bucket's and (when `merged`) its companion's
    /// conditions: bucket `b` is `entries[runStart[b]..<runStart[b + 1]]` (`PredicateProgram.runs`).
    let entries: FrozenBuffer<PredicateProgram.Entry>
    let runStart: FrozenBuffer<Int32>
    /// Whether each run holds its companion bucket's entries too (false when the copies would more
    /// than double the entries: then an event with two buckets scans two runs).
    public let merged: Bool

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
        (entries, runStart, merged) = program.runs(for: buckets)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        // One scan per event when the runs are merged: a product's run already holds any-purchase.
        // (A second scan call site was emitted out of line, with its own setup, for every purchase.)
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        program.scan(entries, run(first), i, events, scratch)
        if !merged, a >= 0, b >= 0 { program.scan(entries, run(b), i, events, scratch) }
    }

    @inline(__always)
    func run(_ bucket: Int32) -> Range<Int> { Int(runStart[Int(bucket)])..<Int(runStart[Int(bucket) + 1]) }
}
