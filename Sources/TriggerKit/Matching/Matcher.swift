/// A matching strategy (docs/strategies.md). A matcher is immutable once built, so many threads may share it;
/// everything an event's matching writes lives in the caller-owned `MatchScratch`.
public protocol Matcher: Sendable {
    /// The strategy's name as `bench` spells it.
    static var strategyName: String { get }
    /// The trigger set this matcher was built from.
    var triggerSet: TriggerSet { get }
    /// A scratch sized for this matcher and `events` (memo tables, result buffer). May allocate.
    func makeScratch(for events: EventColumns) -> MatchScratch
    /// Matches event `i`: appends matched trigger indices to `scratch` (any order, no duplicates),
    /// adds the number of conditions evaluated to `scratch.candidates`. Allocates nothing.
    func match(_ i: Int, in events: EventView, scratch: MatchScratch)
}
