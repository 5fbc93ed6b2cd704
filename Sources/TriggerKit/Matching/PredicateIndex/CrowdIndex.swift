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

    struct PoolRange: Sendable, BitwiseCopyable { var start: Int32; var end: Int32 }

    var equality = FlatTable<PoolRange>([(CrowdIndex.EqualityKey, PoolRange)](), filler: PoolRange(start: 0, end: 0))
    var equalityEntries: [Int32] = []
    /// Each key's range lists and bands, found through a flat table of positions
    /// and probed in place: a dictionary lookup hashed the key and copied the lists out, retaining each.
    var rangeAt = FlatTable<Int32>(positionsOf: [])
    var ranges = FrozenBuffer<RangeLists>([])
    var bandAt = FlatTable<Int32>(positionsOf: [])
    var bands = FrozenBuffer<BandIndex>([])
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
        var spans: [(EqualityKey, PoolRange)] = []
        for (k, list) in eq {
            spans.append((k, PoolRange(start: Int32(equalityEntries.count), end: Int32(equalityEntries.count + list.count))))
            equalityEntries.append(contentsOf: list)
        }
        equality = FlatTable(spans, filler: PoolRange(start: 0, end: 0))
        let rangeKeyList = rangeBuild.keys.sorted(), bandKeyList = bandBuild.keys.sorted()
        ranges = FrozenBuffer(rangeKeyList.map { rangeBuild[$0]!.build() })
        rangeAt = FlatTable(positionsOf: rangeKeyList)
        bands = FrozenBuffer(bandKeyList.map { BandIndex(bandBuild[$0]!) })
        bandAt = FlatTable(positionsOf: bandKeyList)
        for k in eq.keys { equalityKeys |= PredicateProgram.keyBit(k.key) }
        for k in rangeKeyList { rangeKeys |= PredicateProgram.keyBit(k) }
        for k in bandKeyList { bandKeys |= PredicateProgram.keyBit(k) }
    }
}
