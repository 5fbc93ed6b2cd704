extension PredicateIndexMatcher {
    /// The order in which the program lays out the conditions' clauses and predicates
    /// (`PredicateProgram.init`'s `order`): bucket by bucket, in the order the spans hold their entries,
    /// so a scan reads predicates in sequence instead of one cache miss per entry in a program of
    /// 100,000 triggers laid out in corpus order. A crowded bucket's conditions are grouped by the
    /// equality filter alone in one of their clauses (property and value), which is what an index probe
    /// looks them up by, so a probe's candidates are neighbours too.
    static func layoutOrder(_ set: TriggerSet, vocabulary: Vocabulary, buckets: TriggerBuckets, crowdThreshold: Int) -> [Int32] {
        var conditionStart = [Int32]()
        conditionStart.reserveCapacity(set.triggers.count)
        var total: Int32 = 0
        for t in set.triggers.indices {
            conditionStart.append(total)
            total += Int32(set.triggers[t].conditions.count)
        }
        var order = [Int32]()
        order.reserveCapacity(Int(total))
        var words: [UInt64] = []
        for b in 0..<buckets.bucketCount {
            let range = buckets.range(of: Int32(b))
            guard range.count >= crowdThreshold else {
                for k in range { order.append(conditionStart[Int(buckets.entries[k].trigger)] + buckets.entries[k].condition) }
                continue
            }
            // One sortable word per condition: 32 bits of its access key's hash, then its number (so
            // equal keys stay in corpus order). A hash collision only merges two groups' neighbourhoods.
            words.removeAll(keepingCapacity: true)
            for k in range {
                let entry = buckets.entries[k]
                let hash = layoutKey(set.triggers[Int(entry.trigger)].conditions[Int(entry.condition)], vocabulary.symbols)
                    .map { key -> UInt64 in
                        var h = UInt64(UInt32(bitPattern: key.key)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.kind) &<< 56 ^ key.bits
                        h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
                        return (h ^ (h >> 29)) >> 33  // 31 bits; keyless conditions sort last below
                    } ?? (1 << 31)
                words.append(hash << 32 | UInt64(UInt32(bitPattern: conditionStart[Int(entry.trigger)] + entry.condition)))
            }
            words.sort()
            for w in words { order.append(Int32(truncatingIfNeeded: w & 0xFFFF_FFFF)) }
        }
        return order
    }

    /// The first filter alone in its clause that tests equality, filed as `CrowdIndex.EqualityKey`
    /// files it (numbers that compare equal share a key).
    static func layoutKey(_ condition: Condition, _ symbols: SymbolTable) -> CrowdIndex.EqualityKey? {
        for clause in condition.filters.clauses where clause.count == 1 && clause[0].op == .eq {
            guard let property = symbols.lookup(clause[0].property) else { continue }
            let value: (tag: ValueTag, bits: UInt64)
            switch clause[0].operand {
            case .number(.int(let i)): value = (.int, UInt64(bitPattern: i))
            case .number(.double(let d)): value = (.double, d.bitPattern)
            case .string(let s): value = (.string, UInt64(UInt32(bitPattern: symbols.lookup(s) ?? -1)))
            case .bool(let b): value = (.bool, b ? 1 : 0)
            default: continue
            }
            if let key = CrowdIndex.EqualityKey(key: property, tag: value.tag.rawValue, bits: value.bits) { return key }
        }
        return nil
    }
}
