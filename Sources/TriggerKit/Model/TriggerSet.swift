/// A validated corpus: the trigger set plus its settings. Immutable once loaded.
public final class TriggerSet: Sendable {
    public let triggers: [Trigger]
    /// Seconds required between displays; 0 disables the interval.
    public let minimumTriggerInterval: Double
    /// Trigger id to corpus index.
    public let indexByID: [String: Int]
    /// The action-button categories push payloads may name: the defaults plus the corpus's custom ones.
    public let actionCategories: ActionCategories

    public init(triggers: [Trigger], minimumTriggerInterval: Double = 30, actionCategories: ActionCategories = .standard) {
        self.triggers = triggers
        self.minimumTriggerInterval = minimumTriggerInterval
        self.actionCategories = actionCategories
        var map: [String: Int] = [:]
        map.reserveCapacity(triggers.count)
        for i in triggers.indices { map[triggers[i].id] = i }
        self.indexByID = map
    }
}
