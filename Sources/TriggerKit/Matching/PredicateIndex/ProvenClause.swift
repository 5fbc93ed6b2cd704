/// A crowd's condition filed under an equality that is not its only filter: the probe that finds it has
/// proved that clause, so the clause is laid out first and the listed entry carries `flag`; evaluation
/// starts at the second clause (`PredicateProgram.scanListed`). A regex literal key proves nothing (RE2
/// decides), so those entries are listed plain.
package enum ProvenClause {
    package static let shift: Int32 = 30
    package static let flag: Int32 = 1 << shift
    /// The entry number of a listed value (the spans of a set hold fewer than 2^30 entries: the
    /// corpus decoder's limits keep them far below).
    package static let entryMask: Int32 = flag - 1

    /// How many leading clauses of listed value `v`'s entry are proven: 0 or 1.
    @inlinable @inline(__always)
    package static func provenClauses(_ v: Int32) -> Int { Int(v &>> shift) }
}

/// Which conditions have their proven clause laid out first, by each condition's first clause number.
/// A condition can sit in two crowds (a product's span and a merged any-purchase companion's copy of
/// it): it is reordered once, and a crowd that files it under another clause evaluates it in full.
struct ClauseLayout {
    /// One bit per clause number: set for each condition's first clause once its order is settled.
    /// Allocated at the first proven condition, so a set without one pays no allocation.
    private var settled: [UInt64] = []

    /// Marks the condition starting at clause `first` settled; returns whether it was not yet.
    private mutating func settle(_ first: Int, clauses: Int) -> Bool {
        if settled.isEmpty { settled = [UInt64](repeating: 0, count: clauses / 64 + 1) }
        let bit: UInt64 = 1 << (first & 63)
        defer { settled[first >> 6] |= bit }
        return settled[first >> 6] & bit == 0
    }

    /// Puts `clause` (one predicate alone in it) first among `entry`'s clauses unless an earlier crowd
    /// settled their order; returns whether it is first. Reordering clauses leaves a conjunction's
    /// meaning alone. Before any counting index is built: their postings name clauses by position.
    mutating func putFirst(_ clause: Int, of entry: PredicateProgram.Entry, in program: PredicateProgram) -> Bool {
        let first = Int(entry.clauseStart)
        guard settle(first, clauses: program.clauseStart.count), clause != first else { return clause == first }
        let bounds = program.tables.clauseStart, predicates = program.tables.predicates
        let start = Int(bounds[first]), moved = Int(bounds[clause])
        precondition(Int(bounds[clause + 1]) == moved + 1, "a proven clause holds one predicate")
        let predicate = predicates[moved]
        // The clauses before it move one predicate up; it takes the first place.
        var p = moved
        while p > start {
            predicates[p] = predicates[p - 1]
            p -= 1
        }
        predicates[start] = predicate
        var c = clause
        while c > first {
            bounds[c] = bounds[c - 1] + 1
            c -= 1
        }
        return true
    }
}
