/// What the presenter's delegate answers when a message is about to be shown.
public enum DisplayDecision: Sendable { case now, reenqueue, discard }

/// The app's side of delivery: the presenter's delegate, asset loading and the no-match callback.
/// Every method has a default, so an app implements only what it needs.
public protocol DeliveryDelegate: AnyObject {
    /// Asked just before a message is shown; `.reenqueue` puts it back on top, `.discard` drops it.
    func beforeDisplay(_ message: PendingMessage) -> DisplayDecision
    /// Loads the message's assets; false discards it and tries the next fallback.
    func loadAssets(of message: PendingMessage) -> Bool
    /// Called when an event matched no re-eligible trigger (not when all candidates were throttled).
    func noMatchingTrigger(for event: Event)
    /// Called whenever a message is displayed, re-enqueued or discarded.
    func didRecord(_ record: DisplayRecord, message: PendingMessage)
}

extension DeliveryDelegate {
    public func beforeDisplay(_ message: PendingMessage) -> DisplayDecision { .now }
    public func loadAssets(of message: PendingMessage) -> Bool { true }
    public func noMatchingTrigger(for event: Event) {}
    public func didRecord(_ record: DisplayRecord, message: PendingMessage) {}
}
