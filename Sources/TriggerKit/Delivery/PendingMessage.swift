/// A message waiting for display: triggered (with its trigger and fallbacks) or created locally.
public struct PendingMessage: Sendable {
    /// The trigger that fired; nil for a message the app created locally.
    public let trigger: Trigger?
    public let message: Message
    /// Event time at which the trigger fired.
    public let triggeredAt: Double
    /// After this time the message is discarded instead of shown.
    public let expiresAt: Double
    /// Losing candidates, best first, tried in turn when this message's assets fail to load.
    public let fallbacks: [Trigger]
    /// How many delta syncs the engine had completed when the message was made: a delta that removes
    /// its trigger later discards it (`trigger_removed`), while a trigger added back keeps its new messages.
    public var syncGeneration = 0

    public var triggerID: String? { trigger?.id }
}
