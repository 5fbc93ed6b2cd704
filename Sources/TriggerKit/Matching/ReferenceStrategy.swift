/// The oracle behind the `Matcher` protocol: rebuilds the event as a `[String: PropertyValue]`
/// dictionary and runs `ReferenceMatcher`'s linear scan. Allocates per event, by design.
public struct ReferenceStrategy: Matcher {
    public static let strategyName = "reference"
    public let triggerSet: TriggerSet
    let reference: ReferenceMatcher

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        reference = ReferenceMatcher(set)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch { MatchScratch(triggerCount: triggerSet.triggers.count) }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        let event = events.event(at: i)
        for (t, trigger) in triggerSet.triggers.enumerated() {
            scratch.candidates += trigger.conditions.count
            if reference.matches(trigger, event) { scratch.add(Int32(t)) }
        }
    }
}
