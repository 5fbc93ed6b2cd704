import CPrefetch

/// `compiled` (docs/strategies.md): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
public struct CompiledMatcher: Matcher {
    public static let strategyName = "compiled"
    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram
    /// One run of compiled entries per bucket, the any-purchase (any-push) bucket copied behind each
    /// product's (campaign's) unless that would double them (`PredicateProgram.runs`).
    let runs: PredicateProgram.Runs
    /// Whether each run holds its companion bucket's entries (else a purchase scans two runs).
    public var merged: Bool { runs.merged }

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
        runs = program.runs(for: buckets)
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        matchBegun(i, in: events, scratch: scratch)
    }

    /// `match` after `scratch.begin()` (a delta snapshot stamps its masked triggers in between).
    @inline(__always)
    package func matchBegun(_ i: Int, in events: EventView, scratch: MatchScratch) {
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        // One scan per event when the runs are merged: a product's run already holds any-purchase.
        // (A second scan call site was emitted out of line, with its own setup, for every purchase.)
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        scanBuckets(a, b, first, i, events, scratch)
    }

    /// Out of line: four events in five on braze-typical-200 have no bucket, and with the scan inlined
    /// each of them paid the scan's frame (six saved registers, 0x168 bytes of stack) to return at once.
    @inline(never)
    func scanBuckets(_ a: Int32, _ b: Int32, _ first: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        program.scan(runs.entries, runs.range(of: first), i, events, scratch)
        if !runs.merged, a >= 0, b >= 0 { program.scan(runs.entries, runs.range(of: b), i, events, scratch) }
    }
}
