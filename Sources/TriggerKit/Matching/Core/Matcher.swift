/// A matching strategy (docs/strategies.md). A matcher is immutable once built, so many threads may share it;
/// everything an event's matching writes lives in the caller-owned `MatchScratch`.
public protocol Matcher: Sendable {
    /// The strategy's name, unique among strategies: what `StrategyRegistry.named` finds it by and
    /// what results call its rows.
    static var strategyName: String { get }
    /// The trigger set this matcher was built from.
    var triggerSet: TriggerSet { get }
    /// A scratch sized for this matcher and `events` (memo tables, result buffer). May allocate.
    func makeScratch(for events: EventColumns) -> MatchScratch
    /// Matches event `i`: appends matched trigger indices to `scratch` (any order, no duplicates),
    /// adds the number of conditions evaluated to `scratch.candidates`. Allocates nothing.
    func match(_ i: Int, in events: EventView, scratch: MatchScratch)

    /// Whether a scratch `previous.makeScratch` made serves this matcher as well: a reader keeps its
    /// scratch (and its regex memo) across the snapshots a writer publishes while this holds.
    func canReuseScratch(of previous: any Matcher) -> Bool
}

extension Matcher {
    /// By default, only for a matcher of the same trigger set object (a publication that rebuilds the
    /// same set); a changed set may number its triggers and regexes differently.
    public func canReuseScratch(of previous: any Matcher) -> Bool {
        (previous as? Self).map { $0.triggerSet === triggerSet } ?? false
    }
}
