/// The oracle strategy (docs/strategies.md): a linear scan over every trigger, string compares,
/// filters interpreted from the decoded tree over the event's property dictionary. Clear, not fast:
/// behind the `Matcher` protocol it rebuilds each event as a dictionary, so it allocates per event.
package struct ReferenceMatcher: Matcher {
    package static let strategyName = "reference"
    package let triggerSet: TriggerSet

    package init(_ triggerSet: TriggerSet) { self.triggerSet = triggerSet }

    /// The registry's form; the oracle needs no vocabulary.
    package init(_ triggerSet: TriggerSet, vocabulary: Vocabulary) { self.init(triggerSet) }

    /// Corpus indices of the triggers that match `event`, in corpus order (docs/semantics.md, "Matching").
    package func match(_ event: Event) -> [Int] {
        var out: [Int] = []
        for (i, trigger) in triggerSet.triggers.enumerated() where matches(trigger, event) {
            out.append(i)
        }
        return out
    }

    /// A trigger matches when its window holds the event time and any of its conditions matches.
    package func matches(_ trigger: Trigger, _ event: Event) -> Bool {
        trigger.windowHolds(event.time) && trigger.conditions.contains { $0.matches(event) }
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch { MatchScratch(triggerCount: triggerSet.triggers.count) }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        let event = events.event(at: i)
        for (t, trigger) in triggerSet.triggers.enumerated() {
            scratch.candidates += trigger.conditions.count
            if matches(trigger, event) { scratch.add(Int32(t)) }
        }
    }
}
