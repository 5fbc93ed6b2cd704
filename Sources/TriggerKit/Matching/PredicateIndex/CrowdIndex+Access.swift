/// How a crowd files each condition: the access predicate an event must satisfy for the condition
/// to match, and whether indexing a bucket that way pays.
extension CrowdIndex {
    /// A property key and a canonical value: numbers that compare equal (3 and 3.0) share a key.
    package struct EqualityKey: Hashable, Sendable {
        let key: Int32
        /// 0 integral number, 1 other number, 2 string id, 3 boolean; above, a regex literal (`LiteralKeys`).
        package let kind: UInt8
        let bits: UInt64

        init(key: Int32, kind: UInt8, bits: UInt64) {
            self.key = key
            self.kind = kind
            self.bits = bits
        }

        /// The canonical key of a compact value; nil for values no equality predicate can match.
        @inline(__always)
        package init?(key: Int32, tag: UInt8, bits: UInt64) {
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

    /// How one condition of a crowd is filed: under the access predicate an event must satisfy for it
    /// to match, or in the residual that every probe returns.
    package enum Access {
        /// An equality value, or a regex literal key (`LiteralKeys`) when `literal`; `clause` is the
        /// condition's clause the key comes from (one predicate alone in it).
        case keyed(EqualityKey, literal: Bool, clause: Int)
        /// A lower and an upper bound on one key.
        case band(PredicateProgram.Predicate, PredicateProgram.Predicate)
        /// A one-sided numeric range.
        case range(PredicateProgram.Predicate)
        case residual
    }

    /// The clause's predicate when it is the clause's only one (so it must hold).
    @inline(__always)
    static func single(_ clause: Int, in program: PredicateProgram) -> PredicateProgram.Predicate? {
        let lo = program.clauseStart[clause]
        return program.clauseStart[clause + 1] - lo == 1 ? program.predicates[Int(lo)] : nil
    }

    /// The key an equality predicate files under; nil for other predicates.
    static func equalityKey(_ p: PredicateProgram.Predicate) -> EqualityKey? {
        switch p.code {
        case .numEq: EqualityKey(key: p.key, tag: p.constTag, bits: p.constBits)
        case .strEq: EqualityKey(key: p.key, tag: ValueTag.string.rawValue, bits: p.constBits)
        case .boolEq: EqualityKey(key: p.key, tag: ValueTag.bool.rawValue, bits: p.constBits)
        default: nil
        }
    }

    /// A regex that holds only on a string containing its literals (not its negation).
    static func isIndexableRegex(_ p: PredicateProgram.Predicate) -> Bool {
        (p.code == .regex || p.code == .regexSearch) && p.tagMask == 1 << ValueTag.string.rawValue
    }

    /// The access predicate of `entry`: among the filters alone in their clause (so they must hold),
    /// the one expected to gather the fewest conditions by `statistics` — an equality value or a regex
    /// literal by its count (a literal loses ties: RE2 verifies its candidates), a two-sided band on
    /// one key as an eighth of the crowd, a one-sided range as half. Reads the program in place and
    /// allocates nothing but a pattern's literals, once per regex.
    package static func access(of entry: PredicateProgram.Entry, in program: PredicateProgram, statistics: inout AccessStatistics) -> Access {
        let clauses = Int(entry.clauseStart)..<Int(entry.clauseEnd)
        var best = Access.residual, cost = Double.infinity
        var lower: PredicateProgram.Predicate?, firstRanged: PredicateProgram.Predicate?
        for clause in clauses {
            guard let p = single(clause, in: program) else { continue }
            if let k = equalityKey(p) {
                if statistics.count(k) < cost { (best, cost) = (.keyed(k, literal: false, clause: clause), statistics.count(k)) }
                continue
            }
            if statistics.literalsAllowed, isIndexableRegex(p) {
                for k in statistics.keys(of: p, program: program) where statistics.count(k) + 0.5 < cost {
                    (best, cost) = (.keyed(k, literal: true, clause: clause), statistics.count(k) + 0.5)
                }
                continue
            }
            switch p.code {
            case .numGt, .numGte, .numLt, .numLte:
                guard RangeLists.threshold(p) != nil else { continue }
                if firstRanged == nil { firstRanged = p }
                if lower == nil, p.code == .numGt || p.code == .numGte { lower = p }
            default: continue
            }
        }
        let total = Double(statistics.total)
        if let lower, total / 8 < cost {
            for clause in clauses {
                guard let p = single(clause, in: program) else { continue }
                if p.code == .numLt || p.code == .numLte, p.key == lower.key, RangeLists.threshold(p) != nil {
                    return .band(lower, p)
                }
            }
        }
        if let firstRanged, total / 2 < cost { return .range(firstRanged) }
        return best
    }

    /// Whether probing is expected to return at most half of a crowd of `count` conditions with
    /// `residual` residual ones and `ranged` under a one-sided range: residual conditions always come
    /// back, one-sided ranges about half the time, equalities and bands rarely. Below that, the
    /// probes (hash lookups per property) cost more than screening the whole bucket 64 entries at a
    /// time: on the default workload, indexing every bucket of 32 or more made `predicate-index`
    /// 1.7–1.9× slower than `compiled` (it returned 2.9 candidates per event against 3.2).
    static func pays(count: Int, residual: Int, ranged: Int) -> Bool {
        Double(residual) + 0.5 * Double(ranged) <= 0.5 * Double(count)
    }

    /// `pays` for the conditions `entries` of `run`, without building the index.
    package static func pays(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram,
                             statistics: inout AccessStatistics) -> Bool {
        var residual = 0, ranged = 0
        for e in entries {
            switch access(of: run[e], in: program, statistics: &statistics) {
            case .residual: residual += 1
            case .range: ranged += 1
            case .keyed, .band: break
            }
        }
        return pays(count: entries.count, residual: residual, ranged: ranged)
    }
}
