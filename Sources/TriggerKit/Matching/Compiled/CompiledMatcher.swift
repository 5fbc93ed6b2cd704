/// `compiled` (SPEC §4): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
public struct CompiledMatcher: Matcher {
    public static let strategyName = "compiled"
    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        let (a, b) = buckets.buckets(of: i, in: events)
        if a >= 0 { scan(buckets.range(of: a), i, events, scratch) }
        if b >= 0 { scan(buckets.range(of: b), i, events, scratch) }
    }

    @inline(__always)
    func scan(_ range: Range<Int>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let time = events.times[i]
        var evaluated = 0
        for e in range {
            let entry = buckets.entries[e]
            let t = Int(entry.trigger)
            if scratch.alreadyMatched(entry.trigger) || !program.windowHolds(t, time) { continue }
            evaluated += 1
            if program.conditionHolds(trigger: t, condition: Int(entry.condition), event: i, in: events, scratch: scratch) {
                scratch.add(entry.trigger)
            }
        }
        scratch.candidates += evaluated
    }
}
