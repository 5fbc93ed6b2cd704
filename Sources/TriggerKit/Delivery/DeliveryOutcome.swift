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
