/// The index of one crowded bucket: equality hash, numeric range lists, bands, regex literal keys and
/// the residual. The stored buffers own the memory; the probe reads it through `raw`
/// (`CrowdIndex+Probe.swift`).
package struct CrowdIndex: Sendable {
    struct PoolRange: Sendable, BitwiseCopyable { var start: Int32; var end: Int32 }

    let equality: FlatTable<PoolRange>
    /// Each equality key's conditions: `e` to evaluate, `~e` (negative) to accept as found, when the
    /// key's equality is the condition's only filter, and `e | ProvenClause.flag` to evaluate from the
    /// second clause, the equality having been laid out first. Regex literal keys hold only `e`.
    package let equalityEntries: FrozenBuffer<Int32>
    let residual: FrozenBuffer<Int32>
    /// Each key's range lists and bands, found through a flat table of positions and probed in place:
    /// a dictionary lookup hashed the key and copied the lists out, retaining each.
    let rangeAt: FlatTable<Int32>, ranges: FrozenBuffer<RangeLists>
    let rangeThresholds: FrozenBuffer<Double>, rangeEntries: FrozenBuffer<Int32>
    let bandAt: FlatTable<Int32>, bands: FrozenBuffer<BandIndex>
    let bandLower: FrozenBuffer<Double>, bandUpper: FrozenBuffer<Double>, bandEntries: FrozenBuffer<Int32>
    let literals: CrowdLiterals
    /// Per position of `equalityEntries`: the start in the program's `literals` of the literal-only
    /// pattern of a condition that is that regex alone (checked, then accepted without evaluation); -1
    /// for the others; empty without such conditions.
    package let literalExact: FrozenBuffer<Int32>
    /// Everything above as the probe reads it.
    let raw: Raw

    /// The probe's view: plain pointers, counts and masks (copying it retains nothing), owned by the
    /// index's buffers. The fields every probe reads come first.
    struct Raw: @unchecked Sendable, BitwiseCopyable {
        let residual: UnsafeMutablePointer<Int32>
        let residualCount: Int
        /// `PredicateProgram.keyBit` of the keys `equality`, `rangeAt` and `bandAt` hold: a probe skips
        /// the (hashing) lookup for a property whose bit is clear.
        let equalityKeyBits: UInt64, rangeKeyBits: UInt64, bandKeyBits: UInt64
        let equality: FlatTable<PoolRange>.View
        let equalityEntries: UnsafeMutablePointer<Int32>
        let rangeAt: FlatTable<Int32>.View
        let ranges: UnsafeMutablePointer<RangeLists>
        let rangeThresholds: UnsafeMutablePointer<Double>, rangeEntries: UnsafeMutablePointer<Int32>
        let bandAt: FlatTable<Int32>.View
        let bands: UnsafeMutablePointer<BandIndex>
        let bandLower: UnsafeMutablePointer<Double>, bandUpper: UnsafeMutablePointer<Double>, bandEntries: UnsafeMutablePointer<Int32>
        /// `PredicateProgram.keyBit` of the keys with literal keys, and the rest of the literal index.
        let literalKeyBits: UInt64
        let literals: CrowdLiterals.Raw
        let literalExact: UnsafeMutablePointer<Int32>
        let literalExactCount: Int
    }

    /// `layout`: the conditions whose proven clause some crowd already put first (`ClauseLayout`).
    init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram,
         statistics: inout AccessStatistics, layout: inout ClauseLayout) {
        precondition(entries.upperBound <= Int(ProvenClause.entryMask), "an entry number of 2^30 or more")
        var literalEntries: [Int32] = [], gramLengths: UInt16 = 0, literalKeyBits: UInt64 = 0
        var eq: [EqualityKey: [Int32]] = [:], residual: [Int32] = []
        // Per entry of the crowd, the literal start of a condition that is one literal-only regex alone
        // (-1 otherwise); allocated at the first such condition, so crowds without one pay nothing.
        var exactLiteral: [Int32] = []
        var prefixLengths = Set<Int32>()
        var rangeBuild: [Int32: RangeLists.Builder] = [:]
        var bandBuild: [Int32: [(Double, Double, Int32)]] = [:]
        for e in entries {
            switch Self.access(of: run[e], in: program, statistics: &statistics) {
            case .keyed(let k, let literal, let clause):
                // With one clause, the access filter is the condition's only one. An equality alone holds
                // whenever the key is found: filed as `~e`, it is accepted without evaluation
                // (`PredicateIndexMatcher.accept`). Computed before the append: written inside it, the
                // optimizer copied the key's list on every append (`bench builds --workload tiny`: 375
                // mallocs per build instead of 278).
                let entry = run[e]
                let alone = entry.clauseEnd - entry.clauseStart == 1
                var filed = !literal && alone ? ~Int32(e) : Int32(e)
                if !literal, !alone, layout.putFirst(clause, of: entry, in: program) {
                    filed |= ProvenClause.flag
                }
                eq[k, default: []].append(filed)
                if literal {
                    literalEntries.append(Int32(e))
                    if alone, let p = Self.single(Int(entry.clauseStart), in: program), p.auxCount >= 0 {
                        if exactLiteral.isEmpty { exactLiteral = [Int32](repeating: -1, count: entries.count) }
                        exactLiteral[e - entries.lowerBound] = p.auxCount
                    }
                    literalKeyBits |= PredicateProgram.keyBit(k.key)
                    if LiteralKeys.prefixLength(k.kind) > 0 {
                        prefixLengths.insert(Int32(LiteralKeys.prefixLength(k.kind)))
                    } else {
                        gramLengths |= 1 << (k.kind - LiteralKeys.gramKind(0))
                    }
                }
            case .band(let lower, let upper):
                bandBuild[lower.key, default: []].append((RangeLists.threshold(lower)!, RangeLists.threshold(upper)!, Int32(e)))
            case .range(let p):
                rangeBuild[p.key, default: RangeLists.Builder()].add(p, entry: Int32(e))
            case .residual:
                residual.append(Int32(e))
            }
        }
        var spans: [(EqualityKey, PoolRange)] = [], filed: [Int32] = []
        for (k, list) in eq {
            spans.append((k, PoolRange(start: Int32(filed.count), end: Int32(filed.count + list.count))))
            filed.append(contentsOf: list)
        }
        equality = FlatTable(spans, filler: PoolRange(start: 0, end: 0))
        equalityEntries = FrozenBuffer(filed)
        self.residual = FrozenBuffer(residual)
        let rangeKeyList = rangeBuild.keys.sorted(), bandKeyList = bandBuild.keys.sorted()
        var thresholds: [Double] = [], rangeEntries: [Int32] = []
        ranges = FrozenBuffer(rangeKeyList.map { rangeBuild[$0]!.build(thresholds: &thresholds, entries: &rangeEntries) })
        rangeAt = FlatTable(positionsOf: rangeKeyList)
        (rangeThresholds, self.rangeEntries) = (FrozenBuffer(thresholds), FrozenBuffer(rangeEntries))
        var lower: [Double] = [], upper: [Double] = [], bandEntries: [Int32] = []
        bands = FrozenBuffer(bandKeyList.map { BandIndex(bandBuild[$0]!, lower: &lower, upper: &upper, entries: &bandEntries) })
        bandAt = FlatTable(positionsOf: bandKeyList)
        (bandLower, bandUpper, self.bandEntries) = (FrozenBuffer(lower), FrozenBuffer(upper), FrozenBuffer(bandEntries))
        literals = literalKeyBits == 0 ? CrowdLiterals() :
            CrowdLiterals(conditions: entries.count, entries: literalEntries, prefixLengths: prefixLengths.sorted(), gramLengths: gramLengths,
                          filter: LiteralFilter(eq.keys.filter { $0.kind > 3 }))
        // An entry is filed under one key, so a literal start marks a literal-keyed position.
        literalExact = FrozenBuffer(exactLiteral.isEmpty ? [] :
            filed.map { $0 >= 0 ? exactLiteral[Int($0 & ProvenClause.entryMask) - entries.lowerBound] : -1 })
        func keyBits<S: Sequence<Int32>>(_ keys: S) -> UInt64 { keys.reduce(0) { $0 | PredicateProgram.keyBit($1) } }
        raw = Raw(residual: self.residual.base, residualCount: self.residual.count,
                  equalityKeyBits: keyBits(eq.keys.lazy.filter { $0.kind <= 3 }.map(\.key)),
                  rangeKeyBits: keyBits(rangeKeyList), bandKeyBits: keyBits(bandKeyList),
                  equality: equality.view, equalityEntries: equalityEntries.base,
                  rangeAt: rangeAt.view, ranges: ranges.base, rangeThresholds: rangeThresholds.base, rangeEntries: self.rangeEntries.base,
                  bandAt: bandAt.view, bands: bands.base, bandLower: bandLower.base, bandUpper: bandUpper.base, bandEntries: self.bandEntries.base,
                  literalKeyBits: literalKeyBits, literals: literals.raw,
                  literalExact: literalExact.base, literalExactCount: literalExact.count)
    }
}
