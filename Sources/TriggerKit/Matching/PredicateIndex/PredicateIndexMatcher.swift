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
    /// Buckets with at least this many conditions are considered for an index (see
    /// `CrowdIndex.prunesEnough`); smaller ones are scanned as `compiled` scans them.
    package static let crowdThreshold = 32
    /// Buckets with at least this many conditions and no crowd index are counted (`CountingIndex`)
    /// when most of their conditions are countable; smaller ones are scanned.
    package static let countThreshold = 256

    /// The set built from, or a redirected delta snapshot's history.
    let origin: SetOrigin
    package var triggerSet: TriggerSet { origin.triggerSet }
    package let buckets: TriggerBuckets
    package let program: PredicateProgram
    /// One span of compiled entries per bucket, as `compiled` lays them out (`PredicateProgram.spans`).
    package let spans: PredicateProgram.Spans
    /// Per bucket, the index in `crowds` of its span; -1 when the span is scanned; `crowds.count + k`
    /// when it is `counted[k]`; `crowds.count + counted.count + k` when it is `cells[k]`. One load
    /// decides all four, and a scanned span tests only the sign, as before counting existed (a second
    /// test there cost every scanned event instructions).
    package let crowdOfBucket: FrozenBuffer<Int32>
    /// In manually allocated memory: a search reads the members it probes in place (copying an
    /// index out of an array retained and released every one of its arrays and dictionaries).
    package let crowds: FrozenBuffer<CrowdIndex>
    let counted: FrozenBuffer<CountingIndex>
    /// Buckets of range subscriptions (`IntervalCells`); nil when there are none, so a build without
    /// them allocates nothing for them.
    package let cells: FrozenBuffer<IntervalCells>?
    /// Scratch words the largest `cells` index needs, at the top of the scratch's mark words.
    let cellScratchWords: Int
    /// The most conditions an indexed or counted span holds: room for every candidate its index can return.
    let largestCrowd: Int
    /// Buckets numbered from here on are `redirected`'s: a delta snapshot's rebuilt buckets (none in a build).
    let ownBuckets: Int32
    let redirected: RedirectedSpans?

    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        self.init(set, vocabulary: vocabulary, crowdThreshold: Self.crowdThreshold, requirePruning: true)
    }

    /// `crowdThreshold`: the smallest bucket considered for an index; `requirePruning: false` indexes
    /// every such bucket even when `CrowdIndex.prunesEnough` says scanning is cheaper (tests use both to
    /// reach the index on small corpora).
    /// `countThreshold`: the smallest bucket considered for a `CountingIndex` (tests lower it).
    package init(_ set: TriggerSet, vocabulary: Vocabulary, crowdThreshold: Int, requirePruning: Bool = true,
                countThreshold: Int = Self.countThreshold) {
        origin = SetOrigin(built: set, delta: nil)
        let buckets = TriggerBuckets(set, vocabulary: vocabulary)
        self.buckets = buckets
        let program = PredicateProgram(set, vocabulary: vocabulary,
                                       order: Self.layoutOrder(set, vocabulary: vocabulary, buckets: buckets, crowdThreshold: crowdThreshold))
        self.program = program
        // A big any-purchase (any-push) bucket is indexed once, not copied behind every product's span.
        let companion = buckets.companions()
        let bigCompanion = (0..<buckets.bucketCount).contains {
            companion[$0] >= 0 && buckets.range(of: companion[$0]).count >= countThreshold
        }
        let spans = program.spans(for: buckets, merge: !bigCompanion)
        self.spans = spans
        var crowdOfBucket = [Int32](repeating: -1, count: buckets.bucketCount)
        var countedBuckets: [Int] = [], cellBuckets: [Int] = []
        var crowds: [CrowdIndex] = []
        var counted: [CountingIndex] = []
        var largestCrowd = 0, largestCounted = 0
        var layout = ClauseLayout()
        for b in 0..<buckets.bucketCount {
            let range = spans.range(of: Int32(b))
            // Range subscriptions (every clause one number comparison) are cut into cells, whatever a
            // crowd index would do: a band or threshold prunes on one attribute and leaves the rest to
            // evaluate, which on their shape costs more than the scan it replaces.
            // (At the default threshold even where tests lower `countThreshold` to reach the counting index.)
            if range.count >= Self.countThreshold, IntervalCells.worthIndexing(entries: range, of: spans.entries, program: program) {
                cellBuckets.append(b)
                largestCounted = max(largestCounted, range.count)
                continue
            }
            // Classified first, built only if it prunes: building and dropping an index allocated for
            // every entry (the default set has crowds that do not prune).
            var statistics = range.count >= crowdThreshold ? AccessStatistics(entries: range, of: spans.entries, program: program) : nil
            guard statistics != nil,
                  !requirePruning || CrowdIndex.prunesEnough(entries: range, of: spans.entries, program: program, statistics: &statistics!) else {
                if range.count >= countThreshold, CountingIndex.worthCounting(entries: range, of: spans.entries) {
                    countedBuckets.append(b)  // numbered after the crowds, below
                    largestCounted = max(largestCounted, range.count)
                }
                continue
            }
            // In layout order, so the candidates of one equality probe are neighbours in memory too.
            var positions = range.map { UInt64(UInt32(bitPattern: spans.entries[$0].clauseStart)) << 32 | UInt64($0) }
            positions.sort()
            let sorted = positions.map { spans.entries[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
            for (k, e) in zip(range, sorted) { spans.entries.base[k] = e }
            let index = CrowdIndex(entries: range, of: spans.entries, program: program, statistics: &statistics!, layout: &layout)
            crowdOfBucket[b] = Int32(crowds.count)
            crowds.append(index)
            largestCrowd = max(largestCrowd, range.count)
        }
        // Counted after every crowd: a crowd may reorder a condition's clauses (`ClauseLayout`), and a
        // counting index names clauses by position.
        for (k, b) in countedBuckets.enumerated() {
            crowdOfBucket[b] = Int32(crowds.count + k)
            counted.append(CountingIndex(entries: spans.range(of: Int32(b)), of: spans.entries, program: program))
        }
        var cells: [IntervalCells] = []
        for (k, b) in cellBuckets.enumerated() {
            crowdOfBucket[b] = Int32(crowds.count + counted.count + k)
            cells.append(IntervalCells(entries: spans.range(of: Int32(b)), of: spans.entries, program: program))
        }
        self.cellScratchWords = cells.map(\.scratchWords).max() ?? 0
        self.cells = cells.isEmpty ? nil : FrozenBuffer(cells)
        self.crowdOfBucket = FrozenBuffer(crowdOfBucket)
        self.crowds = FrozenBuffer(crowds)
        self.counted = FrozenBuffer(counted)
        self.largestCrowd = max(largestCrowd, largestCounted)
        ownBuckets = Int32(buckets.bucketCount)
        redirected = nil
    }

    /// `base` whose lookups are `buckets`, sending some keys to `redirected`'s spans (a delta snapshot's).
    package init(_ base: PredicateIndexMatcher, buckets: TriggerBuckets, redirected: RedirectedSpans, layer: DeltaLayer) {
        origin = SetOrigin(built: base.origin.built, delta: layer)
        self.buckets = buckets
        program = base.program
        spans = base.spans
        crowdOfBucket = base.crowdOfBucket
        crowds = base.crowds
        counted = base.counted
        cells = base.cells
        cellScratchWords = base.cellScratchWords
        largestCrowd = base.largestCrowd
        ownBuckets = base.ownBuckets
        self.redirected = redirected
    }

    /// The order in which the program lays out the conditions' clauses and predicates
    /// (`PredicateProgram.init`'s `order`): bucket by bucket, in the order the spans hold their entries,
    /// so a scan reads predicates in sequence instead of one cache miss per entry in a program of
    /// 100,000 triggers laid out in corpus order. A crowded bucket's conditions are grouped by the
    /// equality filter alone in one of their clauses (property and value), which is what an index probe
    /// looks them up by, so a probe's candidates are neighbours too.
    static func layoutOrder(_ set: TriggerSet, vocabulary: Vocabulary, buckets: TriggerBuckets, crowdThreshold: Int) -> [Int32] {
        var conditionStart = [Int32]()
        conditionStart.reserveCapacity(set.triggers.count)
        var total: Int32 = 0
        for t in set.triggers.indices {
            conditionStart.append(total)
            total += Int32(set.triggers[t].conditions.count)
        }
        var order = [Int32]()
        order.reserveCapacity(Int(total))
        var words: [UInt64] = []
        for b in 0..<buckets.bucketCount {
            let range = buckets.range(of: Int32(b))
            guard range.count >= crowdThreshold else {
                for k in range { order.append(conditionStart[Int(buckets.entries[k].trigger)] + buckets.entries[k].condition) }
                continue
            }
            // One sortable word per condition: 32 bits of its access key's hash, then its number (so
            // equal keys stay in corpus order). A hash collision only merges two groups' neighbourhoods.
            words.removeAll(keepingCapacity: true)
            for k in range {
                let entry = buckets.entries[k]
                let hash = equalityKey(set.triggers[Int(entry.trigger)].conditions[Int(entry.condition)], vocabulary.symbols)
                    .map { key -> UInt64 in
                        var h = UInt64(UInt32(bitPattern: key.property)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.kind) &<< 56 ^ key.bits
                        h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
                        return (h ^ (h >> 29)) >> 33  // 31 bits; keyless conditions sort last below
                    } ?? (1 << 31)
                words.append(hash << 32 | UInt64(UInt32(bitPattern: conditionStart[Int(entry.trigger)] + entry.condition)))
            }
            words.sort()
            for w in words { order.append(Int32(truncatingIfNeeded: w & 0xFFFF_FFFF)) }
        }
        return order
    }

    /// The first filter alone in its clause that tests equality, as (property id, value kind, value
    /// bits) with numbers that compare equal sharing a key (as `CrowdIndex.EqualityKey` files them).
    static func equalityKey(_ condition: Condition, _ symbols: SymbolTable) -> (property: Int32, kind: UInt8, bits: UInt64)? {
        for clause in condition.filters.clauses where clause.count == 1 && clause[0].op == .eq {
            guard let property = symbols.lookup(clause[0].property) else { continue }
            switch clause[0].operand {
            case .number(.int(let i)): return (property, 0, UInt64(bitPattern: i))
            case .number(.double(let d)):
                guard let k = CrowdIndex.EqualityKey(key: property, tag: ValueTag.double.rawValue, bits: d.bitPattern) else { continue }
                return (property, k.kind, k.bits)
            case .string(let s): return (property, 2, UInt64(UInt32(bitPattern: symbols.lookup(s) ?? -1)))
            case .bool(let b): return (property, 3, b ? 1 : 0)
            default: continue
            }
        }
        return nil
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
        (0..<crowds.count).reduce(0) { max($0, crowds[$1].literals.conditions) }
    }

    /// The most conditions a counted span holds: room for their mark words in a scratch.
    var largestCounted: Int {
        (0..<counted.count).reduce(0) { max($0, counted[$1].initial.count) }
    }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        matchBegun(i, in: events, scratch: scratch)
    }

    /// `match` after `scratch.begin()` (a delta snapshot stamps its masked triggers in between).
    @inline(__always)
    package func matchBegun(_ i: Int, in events: EventView, scratch: MatchScratch) {
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        // One search per event when the spans are merged (see `CompiledMatcher.match`).
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        searchBuckets(a, b, first, i, events, scratch)
    }

    /// Out of line, as in `CompiledMatcher.scanBuckets`: an event without a bucket returns from a small frame.
    @inline(never)
    func searchBuckets(_ a: Int32, _ b: Int32, _ first: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        search(first, i, events, scratch)
        if !spans.merged, a >= 0, b >= 0 { search(b, i, events, scratch) }
    }

    @inline(__always)
    func search(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        guard bucket < ownBuckets else {
            redirected.unsafelyUnwrapped.scan(bucket, i, events, scratch)
            return
        }
        let crowd = crowdOfBucket[Int(bucket)]
        if crowd < 0 {
            program.scan(spans.entries, spans.range(of: bucket), i, events, scratch)
            return
        }
        if Int(crowd) >= crowds.count {
            count(crowd &- Int32(crowds.count), bucket, i, events, scratch)
            return
        }
        // The index's candidates (and the residual conditions) are collected, then screened and
        // evaluated together like a scanned bucket.
        let index = crowds.base + Int(crowd)
        list(index, i, events, scratch)
        if index.pointee.literalKeys != 0 {
            Self.probeLiterals(index, spanStart: spans.range(of: bucket).lowerBound, entries: spans.entries.base, literals: program.tables.literals,
                               i, events, scratch)
        }
        program.prefetchListed(spans.entries, scratch)
        program.scanListed(spans.entries, i, events, scratch)
    }

    /// Lists the residual conditions of crowd `index` and those its probes return for event `i`.
    /// The closures capture only the scratch: capturing `self` copied the whole matcher onto the
    /// stack on every call.
    @inline(__always)
    func list(_ index: UnsafeMutablePointer<CrowdIndex>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        for e in index.pointee.residual { scratch.appendListed(e) }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            let tag = events.propertyTags[p]
            let bits = events.propertyBits[p]
            let keyBit = PredicateProgram.keyBit(key)
            if index.pointee.equalityKeys & keyBit != 0, let probe = CrowdIndex.EqualityKey(key: key, tag: tag, bits: bits),
               let r = index.pointee.equality[probe] {
                for k in Int(r.start)..<Int(r.end) {
                    let e = index.pointee.equalityEntries[k]
                    if e >= 0 { scratch.appendListed(e) } else { Self.accept(spans.entries[Int(~e)], i, events, scratch) }
                }
            }
            guard tag == ValueTag.int.rawValue || tag == ValueTag.double.rawValue else { continue }
            if index.pointee.rangeKeys & keyBit != 0, let at = index.pointee.rangeAt.position(of: key) {
                (index.pointee.ranges.base + Int(at)).pointee.forEachCandidate(tag: tag, bits: bits) { scratch.appendListed($0) }
            }
            if index.pointee.bandKeys & keyBit != 0, let at = index.pointee.bandAt.position(of: key) {
                (index.pointee.bands.base + Int(at)).pointee.forEachCandidate(tag: tag, bits: bits) { scratch.appendListed($0) }
            }
        }
    }

    /// Adds `entry`, whose condition holds for event `i` (its only filter was found by a probe, and
    /// checked if a literal), when the trigger's window and the push action allow: the entry screen
    /// without the predicates, as a counted bucket accepts its entries. Counted as a candidate, like an
    /// evaluated one.
    @inline(__always)
    static func accept(_ entry: PredicateProgram.Entry, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if entry.admits(timeKey: PredicateProgram.timeKey(events.times[i]), action: events.actions[i]), scratch.add(entry.trigger) {
            scratch.candidates &+= 1
        }
    }

    /// A counted bucket: the conditions whose clauses the event's properties all satisfy (and those
    /// without clauses) pass the entry screen and match without evaluation; the residual ones are
    /// evaluated in full. Out of line: buckets this big are rare, and inlined it made every scan's frame bigger.
    @inline(never)
    func count(_ counted: Int32, _ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if Int(counted) >= self.counted.count { return cut(Int(counted) &- self.counted.count, i, events, scratch) }
        let index = self.counted.base + Int(counted)
        if scratch.indexedEvent != i { scratch.indexProperties(of: i, in: events) }
        scratch.candidates &+= scratch.addAll(index.pointee.everywhere.base, count: index.pointee.everywhere.count)
        for e in index.pointee.always { scratch.appendListed(e) }
        CountingIndex.markSatisfied(index, i, in: events, scratch: scratch, base: Int32(spans.range(of: bucket).lowerBound),
                                     tables: program.tables)
        program.acceptListed(spans.entries, i, events, scratch)
        for e in index.pointee.residual { scratch.appendListed(e) }
        program.scanListed(spans.entries, i, events, scratch)
    }

    /// A bucket of range subscriptions (`IntervalCells`): the conditions the cells say hold pass the
    /// entry screen and match; the bucket's other conditions are evaluated in full.
    func cut(_ k: Int, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let index = cells.unsafelyUnwrapped.base + k
        let entries = spans.entries.base
        precondition(scratch.markCapacity >= cellScratchWords, "a scratch smaller than the cells were sized for")
        let area = scratch.marks + (scratch.markCapacity &- cellScratchWords)
        let decided = IntervalCells.probe(index, i, events, area: area) { e in
            Self.accept(entries[Int(e)], i, events, scratch)
        }
        if !decided {
            let r = index.pointee.raw
            for c in 0..<r.conditions { scratch.appendListed(r.entryOf[c]) }
        }
        for e in index.pointee.residual { scratch.appendListed(e) }
        program.scanListed(spans.entries, i, events, scratch)
    }
}
