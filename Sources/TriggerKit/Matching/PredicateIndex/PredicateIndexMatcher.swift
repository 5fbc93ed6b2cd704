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
public struct PredicateIndexMatcher: Matcher {
    public static let strategyName = "predicate-index"
    /// Buckets with at least this many conditions are considered for an index (see
    /// `CrowdIndex.prunesEnough`); smaller ones are scanned as `compiled` scans them.
    public static let crowdThreshold = 32

    public let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    let program: PredicateProgram
    /// One run of compiled entries per bucket, as `compiled` lays them out (`PredicateProgram.runs`).
    let runs: PredicateProgram.Runs
    /// Per bucket, the index in `crowds` of its run, or -1 when the run is scanned.
    let crowdOfBucket: FrozenBuffer<Int32>
    /// In manually allocated memory: a search reads the members it probes in place (copying an
    /// index out of an array retained and released every one of its arrays and dictionaries).
    let crowds: FrozenBuffer<CrowdIndex>
    /// The most conditions a crowded run holds: room for every candidate its index can return.
    let largestCrowd: Int

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        self.init(set, vocabulary: vocabulary, crowdThreshold: Self.crowdThreshold, requirePruning: true)
    }

    /// `crowdThreshold`: the smallest bucket considered for an index; `requirePruning: false` indexes
    /// every such bucket even when `CrowdIndex.prunesEnough` says scanning is cheaper (tests use both to
    /// reach the index on small corpora).
    public init(_ set: TriggerSet, vocabulary: Vocabulary, crowdThreshold: Int, requirePruning: Bool = true) {
        triggerSet = set
        let buckets = TriggerBuckets(set, vocabulary: vocabulary)
        self.buckets = buckets
        let program = PredicateProgram(set, vocabulary: vocabulary,
                                       order: Self.layoutOrder(set, vocabulary: vocabulary, buckets: buckets, crowdThreshold: crowdThreshold))
        self.program = program
        let runs = program.runs(for: buckets)
        self.runs = runs
        var crowdOfBucket = [Int32](repeating: -1, count: buckets.bucketCount)
        var crowds: [CrowdIndex] = []
        var largestCrowd = 0
        for b in 0..<buckets.bucketCount {
            let range = runs.range(of: Int32(b))
            // Classified first, built only if it prunes: building and dropping an index allocated for
            // every entry (the default set has crowds that do not prune).
            guard range.count >= crowdThreshold,
                  !requirePruning || CrowdIndex.prunesEnough(entries: range, of: runs.entries, program: program) else { continue }
            // In layout order, so the candidates of one equality probe are neighbours in memory too.
            var positions = range.map { UInt64(UInt32(bitPattern: runs.entries[$0].clauseStart)) << 32 | UInt64($0) }
            positions.sort()
            let sorted = positions.map { runs.entries[Int(truncatingIfNeeded: $0 & 0xFFFF_FFFF)] }
            for (k, e) in zip(range, sorted) { runs.entries.base[k] = e }
            let index = CrowdIndex(entries: range, of: runs.entries, program: program)
            crowdOfBucket[b] = Int32(crowds.count)
            crowds.append(index)
            largestCrowd = max(largestCrowd, range.count)
        }
        self.crowdOfBucket = FrozenBuffer(crowdOfBucket)
        self.crowds = FrozenBuffer(crowds)
        self.largestCrowd = largestCrowd
    }

    /// The order in which the program lays out triggers' predicates: corpus order, except that the
    /// triggers of crowded buckets come last, grouped by the equality filter alone in a clause of their
    /// crowded condition (property and value), which is what an index probe looks them up by. A probe's
    /// candidates then read neighbouring entries and predicates instead of one cache miss each in a run
    /// of 100,000. Nil when no bucket is crowded.
    static func layoutOrder(_ set: TriggerSet, vocabulary: Vocabulary, buckets: TriggerBuckets, crowdThreshold: Int) -> [Int32]? {
        let n = set.triggers.count
        guard n < 1 << 24, (0..<buckets.bucketCount).contains(where: { buckets.range(of: Int32($0)).count >= crowdThreshold }) else { return nil }
        // One sortable word per crowded trigger: 40 bits of its access key's hash, then its index (so
        // equal keys stay in corpus order). A hash collision only merges two groups' neighbourhoods.
        var crowded = [Bool](repeating: false, count: n)
        var words: [UInt64] = []
        for b in 0..<buckets.bucketCount {
            let range = buckets.range(of: Int32(b))
            guard range.count >= crowdThreshold else { continue }
            for k in range {
                let entry = buckets.entries[k]
                let t = Int(entry.trigger)
                guard !crowded[t] else { continue }
                crowded[t] = true
                let hash = equalityKey(set.triggers[t].conditions[Int(entry.condition)], vocabulary.symbols).map { key -> UInt64 in
                    var h = UInt64(UInt32(bitPattern: key.property)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.kind) &<< 56 ^ key.bits
                    h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
                    return (h ^ (h >> 29)) >> 24  // 40 bits; keyless triggers sort last below
                } ?? (1 << 40) - 1
                words.append(hash << 24 | UInt64(t))
            }
        }
        words.sort()
        var order = [Int32]()
        order.reserveCapacity(n)
        for t in 0..<n where !crowded[t] { order.append(Int32(t)) }
        for w in words { order.append(Int32(truncatingIfNeeded: w & 0xFF_FFFF)) }
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

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events, listCapacity: largestCrowd)
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
        // One search per event when the runs are merged (see `CompiledMatcher.match`).
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        searchBuckets(a, b, first, i, events, scratch)
    }

    /// Out of line, as in `CompiledMatcher.scanBuckets`: an event without a bucket returns from a small frame.
    @inline(never)
    func searchBuckets(_ a: Int32, _ b: Int32, _ first: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        search(first, i, events, scratch)
        if !runs.merged, a >= 0, b >= 0 { search(b, i, events, scratch) }
    }

    @inline(__always)
    func search(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let crowd = crowdOfBucket[Int(bucket)]
        if crowd < 0 {
            program.scan(runs.entries, runs.range(of: bucket), i, events, scratch)
            return
        }
        // The index's candidates (and the residual conditions) are collected, then screened and
        // evaluated together like a scanned bucket. The closures capture only the scratch: capturing
        // `self` copied the whole matcher onto the stack on every call.
        let index = crowds.base + Int(crowd)
        for e in index.pointee.residual { scratch.appendListed(e) }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            let tag = events.propertyTags[p]
            let bits = events.propertyBits[p]
            let keyBit = PredicateProgram.keyBit(key)
            if index.pointee.equalityKeys & keyBit != 0, let probe = CrowdIndex.EqualityKey(key: key, tag: tag, bits: bits),
               let r = index.pointee.equality[probe] {
                for k in Int(r.start)..<Int(r.end) { scratch.appendListed(index.pointee.equalityEntries[k]) }
            }
            guard tag == ValueTag.int.rawValue || tag == ValueTag.double.rawValue else { continue }
            if index.pointee.rangeKeys & keyBit != 0, let lists = index.pointee.ranges[key] {
                lists.forEachCandidate(tag: tag, bits: bits) { scratch.appendListed($0) }
            }
            if index.pointee.bandKeys & keyBit != 0, let bands = index.pointee.bands[key] {
                bands.forEachCandidate(tag: tag, bits: bits) { scratch.appendListed($0) }
            }
        }
        program.prefetchListed(runs.entries, scratch)
        program.scanListed(runs.entries, i, events, scratch)
    }

}
