import CPrefetch

/// `compiled` (SPEC §4): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
public struct CompiledMatcher: Matcher {
    public static let strategyName = "compiled"
    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram
    let entries: FrozenBuffer<PredicateProgram.Entry>

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
        entries = program.entries(for: buckets)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        if a >= 0 { program.scan(entries, buckets.range(of: a), i, events, scratch) }
        if b >= 0 { program.scan(entries, buckets.range(of: b), i, events, scratch) }
    }
}
