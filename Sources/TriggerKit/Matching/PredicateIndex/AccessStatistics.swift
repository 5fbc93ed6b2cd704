/// What a crowd's trigger set says about its access predicates, gathered before any condition is
/// filed: how many conditions each equality value and each regex literal key would gather. A
/// condition is then filed under its most selective access, whatever the order of its clauses
/// (`CrowdIndex.access`).
package struct AccessStatistics {
    /// Conditions per key (equality values and literal keys, as the equality table files them).
    var counts: [CrowdIndex.EqualityKey: Int32] = [:]
    /// The literal keys of each regex slot's pattern, read once.
    var keysOfRegexSlot: [Int32: [CrowdIndex.EqualityKey]] = [:]
    /// The crowd's conditions.
    var total = 0
    /// Whether regexes may be filed by their literals: only in crowds of `literalThreshold` or more.
    /// In smaller ones the probe (every position of every string, for each gram length) cost more
    /// than the memoised regexes it spared: `regex-heavy` went from 893 to 1,310 instructions per event.
    var literalsAllowed = false
    static let literalThreshold = 256

    package init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
        total = entries.count
        literalsAllowed = total >= Self.literalThreshold
        for e in entries {
            let entry = run[e]
            for clause in Int(entry.clauseStart)..<Int(entry.clauseEnd) {
                guard let p = CrowdIndex.single(clause, in: program) else { continue }
                if let k = CrowdIndex.equalityKey(p) {
                    counts[k, default: 0] += 1
                } else if literalsAllowed, CrowdIndex.isIndexableRegex(p) {
                    for k in Set(keys(of: p, program: program)) { counts[k, default: 0] += 1 }
                }
            }
        }
    }

    /// The literal keys regex predicate `p` could be filed under.
    mutating func keys(of p: PredicateProgram.Predicate, program: PredicateProgram) -> [CrowdIndex.EqualityKey] {
        let slot = p.aux
        if let known = keysOfRegexSlot[slot], known.first.map({ $0.key == p.key }) ?? true { return known }
        let keys = LiteralKeys.keys(RegexLiterals(pattern: program.regexes[Int(slot)].pattern), property: p.key)
        keysOfRegexSlot[slot] = keys
        return keys
    }

    /// How many conditions `k` gathers (at least the one asking).
    func count(_ k: CrowdIndex.EqualityKey) -> Double { Double(max(counts[k] ?? 1, 1)) }
}
