/// Whether the app can show a message right now.
public enum AppState: String, Sendable { case foreground, background }

/// The device orientation messages are checked against.
public enum DeviceOrientation: String, Sendable { case portrait, landscape }

/// What the presenter's delegate answers when a message is about to be shown.
public enum DisplayDecision: Sendable { case now, reenqueue, discard }

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

/// The result of delivering one event (docs/semantics.md, "Delivery").
public struct DeliveryOutcome: Sendable {
    public enum Kind: String, Sendable {
        case noMatch = "no_match"
        case throttled
        case triggered
    }

    /// Why a matched trigger did or did not win, for `bench explain`.
    public enum Verdict: Sendable, Equatable {
        /// Its re-eligibility rule excludes it (`lastDisplayed` is when it last displayed).
        case notReEligible(rule: Double, lastDisplayed: Double)
        /// Less than `interval` seconds have passed since the last display (`since` seconds ago).
        case throttled(interval: Double, since: Double)
        case won
        /// Beaten by a trigger of higher priority, or of equal priority listed later in the corpus.
        case lost(to: String)
    }

    public var kind: Kind
    /// Corpus indices of every matched trigger, in corpus order.
    public var matched: [Int]
    /// The winning trigger's corpus index when `kind == .triggered`.
    public var winner: Int?
    /// Per matched trigger (same order as `matched`), what delivery decided.
    public var verdicts: [Verdict]
}

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
