/// What happened to a message when the presenter asked for it (replay's `displays`, docs/semantics.md "Replay").
public struct DisplayRecord: Sendable, Equatable {
    public enum Display: String, Sendable { case displayed, reenqueued, discarded }

    /// Why a message was re-enqueued or discarded.
    public enum Reason: String, Sendable {
        case appInBackground = "app_in_background"
        case messageShowing = "message_showing"
        case delegateReenqueue = "delegate_reenqueue"
        case delegateDiscard = "delegate_discard"
        case assetFailed = "asset_failed"
        case timeout
        case orientationMismatch = "orientation_mismatch"
        case minimumInterval = "minimum_interval"
        case notReEligible = "not_re_eligible"
        /// A delta removed the message's trigger while the message waited.
        case triggerRemoved = "trigger_removed"
    }

    public let time: Double
    /// The trigger whose message this is; nil for a locally created message.
    public let triggerID: String?
    public let display: Display
    public let reason: Reason?
}
