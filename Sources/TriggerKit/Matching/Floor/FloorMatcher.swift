/// The lower bound (docs/strategies.md): read the event and look up its buckets, evaluate nothing.
/// Every strategy pays at least this; the others are reported as a ratio to it.
package struct FloorMatcher: Matcher {
    package static let strategyName = "floor"
    package let triggerSet: TriggerSet
    let buckets: TriggerBuckets

    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch { MatchScratch(triggerCount: triggerSet.triggers.count) }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        let (a, b) = buckets.buckets(of: i, in: events)
        // Touch the bucket bounds and the event's property slice so the reads are not optimised away.
        var touched = 0
        if a >= 0 { touched &+= buckets.range(of: a).count }
        if b >= 0 { touched &+= buckets.range(of: b).count }
        touched &+= Int(events.propertyStart[i + 1] - events.propertyStart[i])
        scratch.candidates &+= touched & 0
    }
}
