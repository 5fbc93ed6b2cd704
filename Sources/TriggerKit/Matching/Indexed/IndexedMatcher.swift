/// `indexed` (docs/strategies.md): event names interned to dense ids, triggers bucketed by (kind, key id);
/// filters still interpreted from the decoded tree, one `Filter` at a time.
package struct IndexedMatcher: Matcher {
    package static let strategyName = "indexed"
    package let triggerSet: TriggerSet
    let buckets: TriggerBuckets
    /// Property key id of every filter, per trigger and condition, in filter order.
    let filterKeys: [[[Int32]]]
    /// Regexes are executed once per interned string; the memo needs a slot per distinct pattern.
    let regexSlots: [String: Int]
    let regexes: [CompiledRegex]

    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        triggerSet = set
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        var slots: [String: Int] = [:]
        var regexes: [CompiledRegex] = []
        let symbols = SymbolTable.Resolver(vocabulary.symbols)
        filterKeys = set.triggers.map { trigger in
            trigger.conditions.map { condition in
                condition.filters.clauses.flatMap { $0 }.map { filter in
                    if case .regex(let re) = filter.operand, slots[re.pattern] == nil {
                        slots[re.pattern] = regexes.count
                        regexes.append(re)
                    }
                    return symbols.lookup(filter.property)!
                }
            }
        }
        regexSlots = slots
        self.regexes = regexes
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch {
        MatchScratch(triggerCount: triggerSet.triggers.count, memoSlots: regexes.count,
                     memoStride: MatchScratch.memoStride(regexes: regexes.count, for: events))
    }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        if a >= 0 { scan(a, i, events, scratch) }
        if b >= 0 { scan(b, i, events, scratch) }
    }

    func scan(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let time = events.times[i]
        for e in buckets.range(of: bucket) {
            let entry = buckets.entries[e]
            let t = Int(entry.trigger)
            if scratch.alreadyMatched(entry.trigger) { continue }
            let trigger = triggerSet.triggers[t]
            guard trigger.windowHolds(time) else { continue }
            scratch.candidates += 1
            let condition = trigger.conditions[Int(entry.condition)]
            if case .pushClick(_, let action?) = condition {
                let eventAction = events.actions[i]
                guard eventAction >= 0, events.strings[Int(eventAction)] == action else { continue }
            }
            if holds(condition.filters, keys: filterKeys[t][Int(entry.condition)], i, events, scratch) {
                scratch.add(entry.trigger)
            }
        }
    }

    func holds(_ cnf: FilterCNF, keys: [Int32], _ i: Int, _ events: EventView, _ scratch: MatchScratch) -> Bool {
        // `keys` has one key per filter, in the CNF's flat order.
        cnf.everyClauseHolds { filter, k in filterHolds(filter, key: keys[k], i, events, scratch) }
    }

    func filterHolds(_ filter: Filter, key: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) -> Bool {
        let p = events.property(key, of: i, for: filter)
        guard p >= 0 else { return filter.op.holdsOnMissing }
        if case .regex(let re) = filter.operand {
            let id = Int(events.propertyBits[p])
            let slot = regexSlots[re.pattern]!
            let found: Bool
            if let cell = scratch.regexMemoCell(slot: slot, string: id) {
                if cell.pointee == 0 { cell.pointee = re.search(events.utf8(id).start, count: events.utf8(id).count) ? 2 : 1 }
                found = cell.pointee == 2
            } else {
                found = re.search(events.utf8(id).start, count: events.utf8(id).count)
            }
            return filter.op == .regex ? found : !found
        }
        return FilterEvaluation.holds(filter, present: events.value(at: p), eventTime: events.times[i])
    }
}
