/// `predicate-index` (docs/strategies.md): `compiled`, plus an index over equality and range predicates for
/// crowded buckets, so cost grows with the triggers an event can match rather than with the
/// triggers that share its name.
///
/// Like BE-Tree and the k-index family, every condition of a crowded bucket is filed under one
/// *access predicate*: a filter alone in its clause (so it must hold for the condition to match)
/// that fails on a missing property — an equality (hash lookup) or a numeric range (a binary search
/// over sorted thresholds). An event probes the index with its own properties; the conditions found,
/// plus the residual ones without an access predicate, are then evaluated in full. The index only
/// prunes, so it may be conservative; it must never drop a condition that could match.
package struct PredicateIndexMatcher: Matcher {
    package static let strategyName = "predicate-index"

    /// The set built from, or a redirected delta snapshot's history.
    let origin: SetOrigin
    package var triggerSet: TriggerSet { origin.triggerSet }
    package let buckets: TriggerBuckets
    package let program: PredicateProgram
    /// One span of compiled entries per bucket, as `compiled` lays them out (`PredicateProgram.spans`).
    package let spans: PredicateProgram.Spans
    /// Per bucket, its plan and where its index is (`BucketPlan.choose` decides; one load per bucket).
    let plannedBuckets: FrozenBuffer<PlannedBucket>
    /// In manually allocated memory: a search reads the members it probes in place (copying an
    /// index out of an array retained and released every one of its arrays and dictionaries).
    package let crowds: FrozenBuffer<CrowdIndex>
    let counted: FrozenBuffer<CountingIndex>
    /// Buckets of range subscriptions (`IntervalCells`); nil when there are none, so a build without
    /// them allocates nothing for them.
    package let cells: FrozenBuffer<IntervalCells>?
    /// Scratch words the largest `cells` index needs (`MatchScratch.cellArea`).
    let cellScratchWords: Int
    /// The most conditions a crowd, counted or cells bucket holds: room for every candidate its index can list.
    let largestListed: Int
    /// Buckets numbered from here on are `redirected`'s: a delta snapshot's rebuilt buckets (none in a build).
    let ownBuckets: Int32
    let redirected: RedirectedSpans?

    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        self.init(set, vocabulary: vocabulary, thresholds: .standard)
    }

    /// `thresholds`: the bucket sizes considered for each index (tests lower them to reach an index
    /// on small corpora).
    package init(_ set: TriggerSet, vocabulary: Vocabulary, thresholds: BucketPlan.Thresholds) {
        origin = SetOrigin(built: set, delta: nil)
        let buckets = TriggerBuckets(set, vocabulary: vocabulary)
        self.buckets = buckets
        var program = PredicateProgram(set, vocabulary: vocabulary,
                                       order: Self.layoutOrder(set, vocabulary: vocabulary, buckets: buckets, crowdThreshold: thresholds.crowd))
        // A big any-purchase (any-push) bucket is indexed once, not copied behind every product's span.
        let companion = buckets.companions()
        let bigCompanion = (0..<buckets.bucketCount).contains {
            companion[$0] >= 0 && buckets.range(of: companion[$0]).count >= thresholds.counted
        }
        let spans = program.spans(for: buckets, merge: !bigCompanion)
        self.spans = spans
        let plans = (0..<buckets.bucketCount).map {
            BucketPlan.choose(entries: spans.range(of: Int32($0)), of: spans.entries, program: program, thresholds: thresholds)
        }
        var planned = [PlannedBucket](repeating: .scanned, count: buckets.bucketCount)
        var largestListed = 0
        for b in plans.indices where plans[b].plan != .scan { largestListed = max(largestListed, spans.range(of: Int32(b)).count) }
        // Cells first: the program then drops the predicates of the conditions they decide, before any
        // other index names clauses by position.
        var cells: [IntervalCells] = []
        var decided: [Bool] = []
        for b in plans.indices where plans[b].plan == .cells {
            planned[b] = PlannedBucket(.cells, position: cells.count)
            let index = IntervalCells(entries: spans.range(of: Int32(b)), of: spans.entries, program: program, set: set)
            if decided.isEmpty { decided = [Bool](repeating: false, count: spans.entries.count) }
            for c in 0..<index.raw.conditions { decided[Int(index.raw.entryOf[c])] = true }
            cells.append(index)
        }
        if !cells.isEmpty { program = program.stripping(decided: decided, in: spans.entries) }
        self.program = program
        var crowds: [CrowdIndex] = []
        var layout = ClauseLayout()
        for b in plans.indices where plans[b].plan == .crowd {
            let range = spans.range(of: Int32(b))
            // In layout order, so the candidates of one equality probe are neighbours in memory too.
            spans.entries.reorder(range) { $0.clauseStart }
            var statistics = plans[b].statistics.unsafelyUnwrapped
            planned[b] = PlannedBucket(.crowd, position: crowds.count)
            crowds.append(CrowdIndex(entries: range, of: spans.entries, program: program, statistics: &statistics, layout: &layout))
        }
        // After every crowd: a crowd may reorder a condition's clauses (`ClauseLayout`), and a counting
        // index names clauses by position.
        var counted: [CountingIndex] = []
        for b in plans.indices where plans[b].plan == .counted {
            planned[b] = PlannedBucket(.counted, position: counted.count)
            counted.append(CountingIndex(entries: spans.range(of: Int32(b)), of: spans.entries, program: program))
        }
        self.cellScratchWords = cells.map(\.scratchWords).max() ?? 0
        self.cells = cells.isEmpty ? nil : FrozenBuffer(cells)
        self.plannedBuckets = FrozenBuffer(planned)
        self.crowds = FrozenBuffer(crowds)
        self.counted = FrozenBuffer(counted)
        self.largestListed = largestListed
        ownBuckets = Int32(buckets.bucketCount)
        redirected = nil
    }

    /// Bucket `b`'s plan (a redirected bucket of a delta snapshot is scanned).
    package func plan(of b: Int32) -> BucketPlan { b < ownBuckets ? plannedBuckets[Int(b)].plan : .scan }

    /// `base` whose lookups are `buckets`, sending some keys to `redirected`'s spans (a delta snapshot's).
    package init(_ base: PredicateIndexMatcher, buckets: TriggerBuckets, redirected: RedirectedSpans, layer: DeltaLayer) {
        origin = SetOrigin(built: base.origin.built, delta: layer)
        self.buckets = buckets
        program = base.program
        spans = base.spans
        plannedBuckets = base.plannedBuckets
        crowds = base.crowds
        counted = base.counted
        cells = base.cells
        cellScratchWords = base.cellScratchWords
        largestListed = base.largestListed
        ownBuckets = base.ownBuckets
        self.redirected = redirected
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch {
        origin.makeScratch(program, for: events, listCapacity: listCapacity, markCapacity: markCapacity)
    }

    package func canReuseScratch(of previous: any Matcher) -> Bool {
        origin.canReuseScratch(of: previous, previousOrigin: (previous as? Self)?.origin)
    }

    /// The most conditions a crowd with regex literal keys holds: room for its marks (`probeLiterals`).
    /// Computed, like `largestCounted`: a stored property made the matcher too big to pass around
    /// without a copy in every `match` call.
    var largestLiteralCrowd: Int {
        (0..<crowds.count).reduce(0) { max($0, crowds[$1].literals.raw.conditions) }
    }

    /// The most conditions a counted span holds: room for their mark words in a scratch.
    var largestCounted: Int {
        (0..<counted.count).reduce(0) { max($0, counted[$1].raw.conditions) }
    }

}
