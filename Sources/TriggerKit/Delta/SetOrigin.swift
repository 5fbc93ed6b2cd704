/// Where a `compiled` or `predicate-index` matcher's trigger set comes from: the whole set it was
/// built from, or, for a redirected delta snapshot, its history (whose set is built on first use).
struct SetOrigin: Sendable {
    let built: TriggerSet
    /// A redirected snapshot's history; nil for a build.
    let delta: DeltaLayer?

    var triggerSet: TriggerSet { delta?.triggerSet ?? built }

    /// A scratch for a matcher of this origin: a snapshot's is its family's.
    func makeScratch(_ program: PredicateProgram, for events: EventColumns, listCapacity: Int, markCapacity: Int) -> MatchScratch {
        if let delta { return delta.family.makeScratch(for: events, listCapacity: listCapacity, markCapacity: markCapacity) }
        return program.makeScratch(triggerCount: built.triggers.count, for: events, listCapacity: listCapacity, markCapacity: markCapacity)
    }

    /// `Matcher.canReuseScratch` for a matcher of this origin after `previous` (`previousOrigin`: its
    /// origin when it is of the same type): a snapshot's family, or a build of the same set object.
    func canReuseScratch(of previous: any Matcher, previousOrigin: SetOrigin?) -> Bool {
        if let delta { return delta.family.includes(previous) }
        return previousOrigin.map { $0.delta == nil && $0.built === built } ?? false
    }
}
