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
        let program = PredicateProgram(set, vocabulary: vocabulary)
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
            let index = CrowdIndex(entries: range, of: runs.entries, program: program)
            crowdOfBucket[b] = Int32(crowds.count)
            crowds.append(index)
            largestCrowd = max(largestCrowd, range.count)
        }
        self.crowdOfBucket = FrozenBuffer(crowdOfBucket)
        self.crowds = FrozenBuffer(crowds)
        self.largestCrowd = largestCrowd
    }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        program.makeScratch(triggerCount: triggerSet.triggers.count, for: events, listCapacity: largestCrowd)
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
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

/// The index of one crowded bucket: equality hash, numeric range lists, and the residual.
struct CrowdIndex: Sendable {
    /// A property key and a canonical value: numbers that compare equal (3 and 3.0) share a key.
    struct EqualityKey: Hashable, Sendable {
        let key: Int32
        /// 0 integral number, 1 other number, 2 string id, 3 boolean.
        let kind: UInt8
        let bits: UInt64

        /// The canonical key of a compact value; nil for values no equality predicate can match.
        @inline(__always)
        init?(key: Int32, tag: UInt8, bits: UInt64) {
            self.key = key
            switch tag {
            case ValueTag.int.rawValue: kind = 0; self.bits = bits
            case ValueTag.double.rawValue:
                let d = Double(bitPattern: bits)
                if d == d.rounded(), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 {
                    kind = 0; self.bits = UInt64(bitPattern: Int64(d))
                } else {
                    kind = 1; self.bits = bits
                }
            case ValueTag.string.rawValue: kind = 2; self.bits = bits
            case ValueTag.bool.rawValue: kind = 3; self.bits = bits
            default: return nil
            }
        }
    }

    struct PoolRange: Sendable { var start: Int32; var end: Int32 }

    var equality: [EqualityKey: PoolRange] = [:]
    var equalityEntries: [Int32] = []
    var ranges: [Int32: RangeLists] = [:]
    var bands: [Int32: BandIndex] = [:]
    var residual: [Int32] = []
    /// `PredicateProgram.keyBit` of the keys `equality`, `ranges` and `bands` hold: a probe skips the
    /// (hashing) lookup for a property whose bit is clear.
    var equalityKeys: UInt64 = 0, rangeKeys: UInt64 = 0, bandKeys: UInt64 = 0

    /// How one condition of a crowd is filed: under the access predicate an event must satisfy for it
    /// to match, or in the residual that every probe returns.
    enum Access {
        case equality(PredicateProgram.Predicate)
        /// A lower and an upper bound on one key.
        case band(PredicateProgram.Predicate, PredicateProgram.Predicate)
        /// A one-sided numeric range.
        case range(PredicateProgram.Predicate)
        case residual
    }

    /// The access predicate of `entry`, chosen among the filters alone in their clause (so they must
    /// hold): an equality (a hash probe) first, then a two-sided band on one key, then a one-sided range.
    /// Reads the program in place, allocating nothing: a build classifies every crowd's conditions first
    /// and indexes only the crowds that `prunesEnough`.
    static func access(of entry: PredicateProgram.Entry, in program: PredicateProgram) -> Access {
        let clauses = Int(entry.clauseStart)..<Int(entry.clauseEnd)
        /// The clause's predicate when it is the clause's only one.
        func single(_ clause: Int) -> PredicateProgram.Predicate? {
            let lo = program.clauseStart[clause]
            return program.clauseStart[clause + 1] - lo == 1 ? program.predicates[Int(lo)] : nil
        }
        var lower: PredicateProgram.Predicate?, firstRanged: PredicateProgram.Predicate?
        for clause in clauses {
            guard let p = single(clause) else { continue }
            switch p.code {
            case .numEq, .strEq, .boolEq: return .equality(p)
            case .numGt, .numGte, .numLt, .numLte:
                guard RangeLists.threshold(p) != nil else { continue }
                if firstRanged == nil { firstRanged = p }
                if lower == nil, p.code == .numGt || p.code == .numGte { lower = p }
            default: continue
            }
        }
        if let lower {
            for clause in clauses {
                guard let p = single(clause) else { continue }
                if p.code == .numLt || p.code == .numLte, p.key == lower.key, RangeLists.threshold(p) != nil {
                    return .band(lower, p)
                }
            }
        }
        if let firstRanged { return .range(firstRanged) }
        return .residual
    }

    /// Whether probing is expected to return at most half of a crowd of `count` conditions with
    /// `residual` residual ones and `ranged` under a one-sided range: residual conditions always come
    /// back, one-sided ranges about half the time, equalities and bands rarely. Below that, the
    /// probes (hash lookups per property) cost more than screening the whole bucket 64 entries at a
    /// time: on the default workload, indexing every bucket of 32 or more made `predicate-index`
    /// 1.7–1.9× slower than `compiled` (it returned 2.9 candidates per event against 3.2).
    static func prunesEnough(count: Int, residual: Int, ranged: Int) -> Bool {
        Double(residual) + 0.5 * Double(ranged) <= 0.5 * Double(count)
    }

    /// `prunesEnough` for the conditions `entries` of `compiled`, without building the index.
    static func prunesEnough(entries: Range<Int>, of compiled: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) -> Bool {
        var residual = 0, ranged = 0
        for e in entries {
            switch access(of: compiled[e], in: program) {
            case .residual: residual += 1
            case .range: ranged += 1
            case .equality, .band: break
            }
        }
        return prunesEnough(count: entries.count, residual: residual, ranged: ranged)
    }

    init(entries: Range<Int>, of compiled: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
        var eq: [EqualityKey: [Int32]] = [:]
        var rangeBuild: [Int32: RangeLists.Builder] = [:]
        var bandBuild: [Int32: [(Double, Double, Int32)]] = [:]
        for e in entries {
            switch Self.access(of: compiled[e], in: program) {
            case .equality(let p):
                let tag: UInt8 = p.code == .numEq ? p.constTag : (p.code == .strEq ? ValueTag.string.rawValue : ValueTag.bool.rawValue)
                eq[EqualityKey(key: p.key, tag: tag, bits: p.constBits)!, default: []].append(Int32(e))
            case .band(let lower, let upper):
                bandBuild[lower.key, default: []].append((RangeLists.threshold(lower)!, RangeLists.threshold(upper)!, Int32(e)))
            case .range(let p):
                rangeBuild[p.key, default: RangeLists.Builder()].add(p, entry: Int32(e))
            case .residual:
                residual.append(Int32(e))
            }
        }
        for (k, list) in eq {
            equality[k] = PoolRange(start: Int32(equalityEntries.count), end: Int32(equalityEntries.count + list.count))
            equalityEntries.append(contentsOf: list)
        }
        ranges = rangeBuild.mapValues { $0.build() }
        bands = bandBuild.mapValues { BandIndex($0) }
        for k in equality.keys { equalityKeys |= PredicateProgram.keyBit(k.key) }
        for k in ranges.keys { rangeKeys |= PredicateProgram.keyBit(k) }
        for k in bands.keys { bandKeys |= PredicateProgram.keyBit(k) }
    }
}

/// Conditions filed under a numeric range predicate on one property, as four lists sorted by threshold.
struct RangeLists: Sendable {
    struct Sorted: Sendable {
        var thresholds: [Double] = []
        var entries: [Int32] = []
    }

    var gt = Sorted(), gte = Sorted(), lt = Sorted(), lte = Sorted()

    /// The predicate's threshold as an exact Double, or nil when it has none (huge integers).
    static func threshold(_ p: PredicateProgram.Predicate) -> Double? { exactProbe(tag: p.constTag, bits: p.constBits) }

    struct Builder {
        var lists: [PredicateProgram.Code: [(Double, Int32)]] = [:]
        mutating func add(_ p: PredicateProgram.Predicate, entry: Int32) {
            lists[p.code, default: []].append((RangeLists.threshold(p)!, entry))
        }
        func build() -> RangeLists {
            func sorted(_ code: PredicateProgram.Code) -> Sorted {
                let l = (lists[code] ?? []).sorted { $0.0 < $1.0 }
                return Sorted(thresholds: l.map(\.0), entries: l.map(\.1))
            }
            return RangeLists(gt: sorted(.numGt), gte: sorted(.numGte), lt: sorted(.numLt), lte: sorted(.numLte))
        }
    }

    /// First position whose threshold is not below `v` (or, with `orEqual`, above `v`).
    @inline(__always)
    static func bound(_ a: [Double], _ v: Double, orEqual: Bool) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] < v || (orEqual && a[mid] == v) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// A number event value as the Double the thresholds are compared with, or nil for an integer
    /// beyond 2^53 (not exactly representable: the lists cannot decide it, every entry is a candidate).
    @inline(__always)
    static func exactProbe(tag: UInt8, bits: UInt64) -> Double? {
        guard tag == ValueTag.int.rawValue else { return Double(bitPattern: bits) }
        let i = Int64(bitPattern: bits)
        return i.magnitude <= 1 << 53 ? Double(i) : nil
    }

    /// Calls `body` with every entry whose range predicate may hold for the value; all entries
    /// when the value is an integer too large to compare exactly as a Double.
    @inline(__always)
    func forEachCandidate(tag: UInt8, bits: UInt64, _ body: (Int32) -> Void) {
        guard let v = Self.exactProbe(tag: tag, bits: bits) else {
            for e in gt.entries { body(e) }
            for e in gte.entries { body(e) }
            for e in lt.entries { body(e) }
            for e in lte.entries { body(e) }
            return
        }
        // gt c holds when c < v; gte when c <= v; lt when c > v; lte when c >= v.
        for k in 0..<Self.bound(gt.thresholds, v, orEqual: false) { body(gt.entries[k]) }
        for k in 0..<Self.bound(gte.thresholds, v, orEqual: true) { body(gte.entries[k]) }
        for k in Self.bound(lt.thresholds, v, orEqual: true)..<lt.entries.count { body(lt.entries[k]) }
        for k in Self.bound(lte.thresholds, v, orEqual: false)..<lte.entries.count { body(lte.entries[k]) }
    }
}

/// Conditions bounded on both sides on one property (`lo < v < hi`, inclusive or not), sorted by
/// lower bound: a value `v` can only fall in bands whose lower bound is in `[v - maxWidth, v]`,
/// found by two binary searches, so a probe visits a narrow slice instead of half the list.
struct BandIndex: Sendable {
    var lower: [Double] = []
    var upper: [Double] = []
    var entries: [Int32] = []
    var maxWidth = 0.0

    init(_ bands: [(Double, Double, Int32)]) {
        let sorted = bands.sorted { $0.0 < $1.0 }
        lower = sorted.map(\.0)
        upper = sorted.map(\.1)
        entries = sorted.map(\.2)
        maxWidth = sorted.map { $0.1 - $0.0 }.max() ?? 0
    }

    @inline(__always)
    func forEachCandidate(tag: UInt8, bits: UInt64, _ body: (Int32) -> Void) {
        guard let v = RangeLists.exactProbe(tag: tag, bits: bits), maxWidth.isFinite, maxWidth >= 0 else {
            for e in entries { body(e) }
            return
        }
        // Bands with lower <= v (inclusive bounds are decided by full evaluation) and lower >= v - maxWidth.
        let first = RangeLists.bound(lower, v - maxWidth, orEqual: false)
        let end = RangeLists.bound(lower, v, orEqual: true)
        var k = first
        while k < end {
            if upper[k] >= v { body(entries[k]) }
            k += 1
        }
    }
}
