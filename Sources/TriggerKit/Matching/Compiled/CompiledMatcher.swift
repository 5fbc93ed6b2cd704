import CPrefetch

/// `compiled` (SPEC §4): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
public struct CompiledMatcher: Matcher {
    public static let strategyName = "compiled"
    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram
    let entries: FrozenBuffer<PredicateProgram.Entry>

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
        entries = program.entries(for: buckets)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        if a >= 0 { scan(buckets.range(of: a), i, events, scratch) }
        if b >= 0 { scan(buckets.range(of: b), i, events, scratch) }
    }

    /// Scans one bucket in runs of up to 64 entries: a branch-free pass screens every entry of the run
    /// (`Tables.passesScreen`) into a bit mask, then only the survivors' clauses are evaluated. Screening
    /// entry by entry cost a hard-to-predict jump per entry; the mask leaves one loop exit per run.
    @inline(__always)
    func scan(_ range: Range<Int>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if scratch.indexedEvent != i { scratch.indexProperties(of: i, in: events) }
        let time = events.times[i], action = events.actions[i], present = scratch.presentKeys
        let tables = program.tables
        var evaluated = 0
        var run = range.lowerBound
        while run < range.upperBound {
            let runEnd = min(run &+ 64, range.upperBound)
            var survivors: UInt64 = 0
            for e in run..<runEnd {
                let pass = PredicateProgram.Tables.passesScreen(entries[e], time: time, action: action, presentKeys: present)
                survivors |= UInt64(pass ? 1 : 0) &<< UInt64(e &- run)
            }
            while survivors != 0 {
                let e = run &+ survivors.trailingZeroBitCount
                survivors &= survivors &- 1
                let entry = entries[e]
                if scratch.alreadyMatched(entry.trigger) { continue }
                evaluated &+= 1
                if tables.clausesHold(entry, event: i, in: events, scratch: scratch) { scratch.add(entry.trigger) }
            }
            run = runEnd
        }
        scratch.candidates &+= evaluated
    }
}
