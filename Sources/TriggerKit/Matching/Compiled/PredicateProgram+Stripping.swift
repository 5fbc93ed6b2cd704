extension PredicateProgram {
    /// This program without the predicates of the conditions an index decides without evaluating
    /// them: `decided[e]` says so of `entries[e]`. A condition is dropped when every entry naming it is
    /// decided (an any-purchase condition copied behind a scanned span keeps its predicates). The
    /// entries' and conditions' clause ranges are rewritten for the new program; a dropped
    /// condition's range becomes the one empty clause at its end, which never holds, so an evaluation
    /// that should not happen fails instead of reading another condition's predicates.
    /// Only while a matcher is being built: `entries` is written in place. Whatever reads conditions'
    /// clauses (`entry(_:)`, the cells' `conditionNumber`) must run before: a dropped condition's
    /// range is the same empty clause as every other's.
    func stripping(decided: [Bool], in entries: FrozenBuffer<Entry>) -> PredicateProgram {
        let clauses = clauseStart.count - 1
        // Per clause: bit 0 an entry evaluating it, bit 1 an entry the index decides. Then, in place,
        // the number of clauses kept before each position (one more position: the end).
        var kept = [Int32](repeating: 0, count: clauses + 1)
        for e in 0..<entries.count {
            let entry = entries[e]
            for c in Int(entry.clauseStart)..<Int(entry.clauseEnd) { kept[c] |= decided[e] ? 2 : 1 }
        }
        var predicates = FrozenBuffer<Predicate>.Builder(capacity: 64)
        var starts = FrozenBuffer<Int32>.Builder(capacity: 64)
        starts.append(0)
        for c in 0..<clauses {
            let keep = kept[c] != 2
            kept[c] = Int32(starts.count - 1)
            guard keep else { continue }
            for p in Int(clauseStart[c])..<Int(clauseStart[c + 1]) { predicates.append(self.predicates[p]) }
            starts.append(Int32(predicates.count))
        }
        let never = Int32(starts.count - 1)
        kept[clauses] = never
        starts.append(Int32(predicates.count))
        // A range whose first clause was dropped was dropped whole (a clause belongs to one condition).
        func mapped(_ from: Int32, _ to: Int32) -> (Int32, Int32) {
            guard from < to, kept[Int(from) + 1] == kept[Int(from)] else { return (kept[Int(from)], kept[Int(to)]) }
            return (never, never + 1)
        }
        for e in 0..<entries.count { (entries.base[e].clauseStart, entries.base[e].clauseEnd) = mapped(entries[e].clauseStart, entries[e].clauseEnd) }
        var conditions = self.conditions
        for k in conditions.indices { (conditions[k].clauseStart, conditions[k].clauseEnd) = mapped(conditions[k].clauseStart, conditions[k].clauseEnd) }
        return PredicateProgram(self, predicates: predicates.freeze(), clauseStart: starts.freeze(), conditions: conditions)
    }
}
