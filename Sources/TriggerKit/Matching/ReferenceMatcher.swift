/// The oracle strategy (docs/strategies.md): a linear scan over every trigger, string compares,
/// filters interpreted from the decoded tree over the event's property dictionary. Clear, not fast.
public struct ReferenceMatcher: Sendable {
    public let triggerSet: TriggerSet

    public init(_ triggerSet: TriggerSet) { self.triggerSet = triggerSet }

    /// Corpus indices of the triggers that match `event`, in corpus order (docs/semantics.md, "Matching").
    public func match(_ event: Event) -> [Int] {
        var out: [Int] = []
        for (i, trigger) in triggerSet.triggers.enumerated() where matches(trigger, event) {
            out.append(i)
        }
        return out
    }

    /// A trigger matches when its window holds the event time and any of its conditions matches.
    public func matches(_ trigger: Trigger, _ event: Event) -> Bool {
        trigger.windowHolds(event.time) && trigger.conditions.contains { $0.matches(event) }
    }
}
