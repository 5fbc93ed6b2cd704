extension PredicateProgram {
    /// A program entries are gathered from (`gathering`), and where its regexes start among the
    /// gathered program's.
    struct GatherSource {
        let program: PredicateProgram
        let regexOffset: Int32
    }

    /// A small program holding copies of the clauses (predicates, set pools) that `entries` read in
    /// their `sources`, and those entries pointed at the copies, in order. Regex slots move by their
    /// source's `regexOffset` (`regexes` must hold each source's regexes there); a memoised regex keeps
    /// its slot, so a source whose memo is the reader's must have offset 0. Costs what the entries read,
    /// not what their programs hold: a redirected delta snapshot gathers its touched buckets this way.
    static func gathering(_ sources: [GatherSource], _ entries: [(source: Int, entry: Entry)],
                          regexes: [CompiledRegex]) -> (program: PredicateProgram, entries: FrozenBuffer<Entry>) {
        var predicates = FrozenBuffer<Predicate>.Builder(capacity: 4 * entries.count + 16)
        var clauseStart = FrozenBuffer<Int32>.Builder(capacity: 2 * entries.count + 16)
        clauseStart.append(0)
        var stringSets = FrozenBuffer<Int32>.Builder(capacity: 16)
        var numberTags = FrozenBuffer<UInt8>.Builder(capacity: 16)
        var numberBits = FrozenBuffer<UInt64>.Builder(capacity: 16)
        var out = FrozenBuffer<Entry>.Builder(capacity: entries.count)
        for (source, entry) in entries {
            var e = entry
            let from = sources[source].program.tables, regexOffset = sources[source].regexOffset
            // A condition's clauses, and so its predicates, are contiguous: one copy, then the clause
            // bounds shifted and the pool and regex references moved.
            let firstPredicate = Int(from.clauseStart[Int(e.clauseStart)]), endPredicate = Int(from.clauseStart[Int(e.clauseEnd)])
            let shift = Int32(predicates.count) - Int32(firstPredicate)
            let firstClause = Int32(clauseStart.count - 1)
            for clause in Int(e.clauseStart) + 1 ..< Int(e.clauseEnd) + 1 { clauseStart.append(from.clauseStart[clause] &+ shift) }
            let at = predicates.count
            predicates.append(contentsOf: from.predicates + firstPredicate, count: endPredicate - firstPredicate)
            predicates.withTail(from: at) { copied in
                for k in copied.indices {
                    switch copied[k].code {
                    case .strIn, .strNotIn:
                        let first = Int(copied[k].aux)
                        copied[k].aux = Int32(stringSets.count)
                        stringSets.append(contentsOf: from.stringSets + first, count: Int(copied[k].auxCount))
                    case .numIn, .numNotIn:
                        let first = Int(copied[k].aux)
                        copied[k].aux = Int32(numberTags.count)
                        numberTags.append(contentsOf: from.numberSetTags + first, count: Int(copied[k].auxCount))
                        numberBits.append(contentsOf: from.numberSetBits + first, count: Int(copied[k].auxCount))
                    case .regex, .notRegex, .regexSearch, .notRegexSearch:
                        copied[k].aux &+= regexOffset
                    default:
                        break
                    }
                }
            }
            e.clauseStart = firstClause
            e.clauseEnd = Int32(clauseStart.count - 1)
            out.append(e)
        }
        let program = PredicateProgram(predicates: predicates.freeze(), clauseStart: clauseStart.freeze(), stringSets: stringSets.freeze(),
                                       numberSetTags: numberTags.freeze(), numberSetBits: numberBits.freeze(), regexes: regexes)
        return (program, out.freeze())
    }
}
