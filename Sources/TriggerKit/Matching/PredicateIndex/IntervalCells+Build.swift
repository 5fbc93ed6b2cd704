extension IntervalCells {
    /// The index of `run[entries]`. Conditions are numbered in run order; the others are `residual`.
    init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram, set: TriggerSet) {
        let grouped = Grouped(entries: entries, of: run, program: program)
        let conditions = grouped.entryOf.count, attributes = grouped.keys.count
        let words = max(1, (conditions + 63) / 64)
        let (splitStart, splits) = Self.splits(of: grouped)
        let cuts = (0..<attributes).map { Cut(splits: splits, first: Int(splitStart[$0]), count: Int(splitStart[$0 + 1] - splitStart[$0])) }
        let totalCells = splits.count + attributes
        // Each end's cell, found once (three passes below need it; a search each was a quarter of a build).
        var loCell = [Int32](repeating: 0, count: grouped.records.count), hiCell = loCell
        for (a, g) in grouped.groups.enumerated() {
            for r in g {
                loCell[r] = Int32(cuts[a].cell(grouped.records[r].lo))
                hiCell[r] = Int32(cuts[a].cell(grouped.records[r].hi))
            }
        }
        // One cell more than the attributes have, with no fails and no ends: a skipped attribute's.
        let (ownedFail, absentBits) = Self.failBits(of: grouped, cuts: cuts, loCell: loCell, hiCell: hiCell, words: words, cells: totalCells + 1)
        // Every bound, not only those kept in lists: the test is cheaper than finding them again.
        let narrow = grouped.records.allSatisfy { Double(Float($0.lo)) == $0.lo && Double(Float($0.hi)) == $0.hi }
        let lows = EndLists(of: grouped, cuts: cuts, cellOf: loCell, cells: totalCells + 1, high: false, narrow: narrow)
        let highs = EndLists(of: grouped, cuts: cuts, cellOf: hiCell, cells: totalCells + 1, high: true, narrow: narrow)
        var attributeOfKey = [Int32](repeating: -1, count: max(grouped.keyLimit, 1))
        for (a, key) in grouped.keys.enumerated() { attributeOfKey[Int(key)] = Int32(a) }

        let ownedTriggers = FrozenBuffer(grouped.entryOf.map { run[Int($0)].admitsEveryEvent ? run[Int($0)].trigger : -1 })
        let conditionOf = grouped.entryOf.map { Self.conditionNumber(of: run[Int($0)], in: program) }
        let ownedConditions = FrozenBuffer(conditionOf)
        let ownedEntries = FrozenBuffer(grouped.entryOf), ownedAttributes = FrozenBuffer(attributeOfKey)
        let ownedSplitStart = FrozenBuffer(splitStart), ownedSplits = FrozenBuffer(splits)
        let ownedAbsent = FrozenBuffer(absentBits), ownedResidual = FrozenBuffer(grouped.residual)
        raw = Raw(conditions: conditions, words: words, attributes: attributes, entryOf: ownedEntries.base,
                  conditionOf: ownedConditions.base, triggerOf: ownedTriggers.base,
                  attributeOfKey: ownedAttributes.base, keyLimit: grouped.keyLimit, splitStart: ownedSplitStart.base,
                  splits: ownedSplits.base, failBits: ownedFail.base, absentBits: ownedAbsent.base,
                  lows: lows.raw, highs: highs.raw, narrowEnds: narrow, residual: ownedResidual.base, residualCount: ownedResidual.count)
        attributeKeys = grouped.keys
        attributeSpellings = Self.spellings(of: grouped.entryOf, conditionOf, run: run, program: program, set: set,
                                            attributeOfKey: attributeOfKey, attributes: attributes)
        owners = [ownedEntries, ownedConditions, ownedTriggers, ownedAttributes, ownedSplitStart, ownedSplits, ownedFail, ownedAbsent, ownedResidual] + lows.owners + highs.owners
    }

    /// `entry`'s number among its trigger's conditions: the one compiled to its clauses (a condition
    /// the cells decide has at least one, so its clause range is its own).
    private static func conditionNumber(of entry: PredicateProgram.Entry, in program: PredicateProgram) -> Int32 {
        let first = Int(program.conditionStart[Int(entry.trigger)])
        let end = Int(entry.trigger) + 1 < program.conditionStart.count ? Int(program.conditionStart[Int(entry.trigger) + 1]) : program.conditions.count
        for k in first..<end where program.conditions[k].clauseStart == entry.clauseStart && program.conditions[k].clauseEnd == entry.clauseEnd {
            return Int32(k - first)
        }
        preconditionFailure("an entry that is none of its trigger's conditions")
    }

    /// Per attribute, the byte-distinct spellings of its name in the filters of the indexed conditions
    /// (`entryOf`, their numbers `conditionOf`): each filter is one clause, compiled in order, so the
    /// `j`th filter's key is the `j`th clause's (before any clause is moved or dropped).
    private static func spellings(of entryOf: [Int32], _ conditionOf: [Int32], run: FrozenBuffer<PredicateProgram.Entry>,
                                  program: PredicateProgram, set: TriggerSet, attributeOfKey: [Int32], attributes: Int) -> [[String]] {
        var spellings = [[String]](repeating: [], count: attributes)
        for c in entryOf.indices {
            let entry = run[Int(entryOf[c])]
            let filters = set.triggers[Int(entry.trigger)].conditions[Int(conditionOf[c])].filters.filters
            for j in filters.indices {
                let key = program.predicates[Int(program.clauseStart[Int(entry.clauseStart) + j])].key
                let a = Int(attributeOfKey[Int(key)])
                if !spellings[a].contains(where: { IntervalCells.sameBytes($0, filters[j].property) }) { spellings[a].append(filters[j].property) }
            }
        }
        return spellings
    }

    /// Every interval of the conditions the cells decide, as a record grouped by attribute.
    private struct Grouped {
        var entryOf: [Int32] = []
        var residual: [Int32] = []
        var records: [(key: Int32, condition: Int32, lo: Double, hi: Double)] = []
        /// The attributes' property keys, ascending, and each one's records.
        var keys: [Int32] = []
        var groups: [Range<Int>] = []
        /// One more than the largest key.
        var keyLimit = 0

        /// In two passes (count per key, then place), so no unsorted copy is held beside the records;
        /// each group stays in condition order.
        init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
            var list: [(key: Int32, lo: Double, hi: Double)] = []
            var groupStart: [Int] = [0]
            for e in entries {
                guard IntervalCells.intervals(of: run[e], program: program, into: &list) else {
                    residual.append(Int32(e))
                    continue
                }
                for i in list {
                    if Int(i.key) + 2 > groupStart.count { groupStart += [Int](repeating: 0, count: Int(i.key) + 2 - groupStart.count) }
                    groupStart[Int(i.key) + 1] += 1
                }
                entryOf.append(Int32(e))
            }
            keyLimit = groupStart.count - 1
            for k in 0..<keyLimit { groupStart[k + 1] += groupStart[k] }
            records = .init(repeating: (0, 0, 0, 0), count: groupStart[keyLimit])
            var next = groupStart
            for (c, e) in entryOf.enumerated() {
                _ = IntervalCells.intervals(of: run[Int(e)], program: program, into: &list)
                for i in list {
                    records[next[Int(i.key)]] = (i.key, Int32(c), i.lo, i.hi)
                    next[Int(i.key)] += 1
                }
            }
            for k in 0..<keyLimit where groupStart[k] < groupStart[k + 1] {
                keys.append(Int32(k))
                groups.append(groupStart[k]..<groupStart[k + 1])
            }
        }
    }

    /// The cell edges of every attribute, `splits[splitStart[a]..<splitStart[a + 1]]` for attribute
    /// `a`: cells per attribute in proportion to its intervals, within the memory allowance.
    private static func splits(of grouped: Grouped) -> (splitStart: [Int32], splits: [Double]) {
        let cellBudget = max(grouped.keys.count, Self.cellBitsPerCondition)
        var splitStart: [Int32] = [0], splits: [Double] = []
        for g in grouped.groups {
            let share = max(1, cellBudget * g.count / max(grouped.records.count, 1))
            // Equi-depth over the finite ends: each cell holds about as many ends, so end lists of about equal length.
            // Quantiles of an evenly strided sample of at most ~32,768 ends are as good and cost no full sort.
            var ends: [Double] = []
            let stride = max(1, g.count / 16_384)
            ends.reserveCapacity(2 * g.count / stride + 2)
            for r in Swift.stride(from: g.lowerBound, to: g.upperBound, by: stride) {
                if grouped.records[r].lo.isFinite { ends.append(grouped.records[r].lo) }
                if grouped.records[r].hi.isFinite { ends.append(grouped.records[r].hi) }
            }
            ends.sort()
            let cells = min(share, max(1, ends.count / 2))
            var last = -Double.infinity
            for t in 1..<max(cells, 1) {
                let s = ends[t * ends.count / cells]
                if s > last {
                    splits.append(s)
                    last = s
                }
            }
            splitStart.append(Int32(splits.count))
        }
        return (splitStart, splits)
    }

    /// Per cell, the conditions an interval of the cell's attribute rules out wholly (`words` words
    /// each); and per attribute, the conditions it constrains (failing when the event lacks it).
    private static func failBits(of grouped: Grouped, cuts: [Cut], loCell: [Int32], hiCell: [Int32], words: Int, cells totalCells: Int)
        -> (fail: FrozenBuffer<UInt64>, absent: [UInt64]) {
        // Written in place in the buffer the index keeps (an array copied into it held the bitsets twice).
        let failBits = FrozenBuffer<UInt64>.allocate(totalCells * words)
        failBits.initialize(repeating: 0, count: totalCells * words)
        var absentBits = [UInt64](repeating: 0, count: cuts.count * words)
        for (a, g) in grouped.groups.enumerated() {
            let cut = cuts[a]
            let base = cut.first + a  // the attribute's first cell
            let cells = cut.count + 1
            // Fails from the cell after its `hi` on, and up to the cell before its `lo`: marked where the
            // run starts and swept into every cell after (before) it, a bitset copy per cell.
            var hiStart = [[Int32]](repeating: [], count: cells + 1)
            var loEnd = [[Int32]](repeating: [], count: cells + 1)
            for r in g {
                let rec = grouped.records[r]
                let c = Int(rec.condition)
                absentBits[a * words + c >> 6] |= 1 << UInt64(c & 63)
                hiStart[Int(hiCell[r]) + 1].append(rec.condition)
                loEnd[Int(loCell[r])].append(rec.condition)  // fails in cells 0..<cell(lo)
            }
            var running = [UInt64](repeating: 0, count: words)
            for j in 0..<cells {
                for c in hiStart[j] { running[Int(c) >> 6] |= 1 << UInt64(c & 63) }
                for w in 0..<words { failBits[(base + j) * words + w] |= running[w] }
            }
            running = [UInt64](repeating: 0, count: words)
            for j in stride(from: cells - 1, through: 0, by: -1) {
                for c in loEnd[j + 1] { running[Int(c) >> 6] |= 1 << UInt64(c & 63) }
                for w in 0..<words { failBits[(base + j) * words + w] |= running[w] }
            }
        }
        return (FrozenBuffer(adopting: failBits, count: totalCells * words), absentBits)
    }

    /// One side's ends inside their cells (`IntervalCells.Ends`), sorted within each cell: a low end
    /// on its cell's lower edge (or below every cell) and a high end of +infinity decide nothing.
    private struct EndLists {
        let raw: Ends
        let owners: [any AnyObject & Sendable]

        init(of grouped: Grouped, cuts: [Cut], cellOf: [Int32], cells: Int, high: Bool, narrow: Bool) {
            var start = [Int32](repeating: 0, count: cells + 1)
            func forEachEnd(_ body: (_ cell: Int, _ value: Double, _ condition: Int32) -> Void) {
                for (a, g) in grouped.groups.enumerated() {
                    let cut = cuts[a]
                    for r in g {
                        let rec = grouped.records[r]
                        let v = high ? rec.hi : rec.lo
                        let j = Int(cellOf[r])
                        if high ? v < cut.upper(j) : v > cut.lower(j) { body(cut.first + a + j, v, rec.condition) }
                    }
                }
            }
            forEachEnd { g, _, _ in start[g + 1] += 1 }
            for g in 0..<cells { start[g + 1] += start[g] }
            let total = Int(start[cells])
            var place = start.map(Int.init)
            let conditions = FrozenBuffer<Int32>.allocate(total)
            func sortRuns<T>(_ all: UnsafeMutableBufferPointer<T>, _ sort: (inout UnsafeMutableBufferPointer<T>) -> Void) {
                for g in 0..<cells where start[g + 1] - start[g] > 1 {
                    var run = UnsafeMutableBufferPointer(rebasing: all[Int(start[g])..<Int(start[g + 1])])
                    sort(&run)
                }
            }
            let ownedValues: any AnyObject & Sendable, values: UnsafeMutableRawPointer
            if narrow {
                // A float's order-preserving bits above its condition: one integer key per end, sorted as
                // integers (pairs sorted by their values were a quarter of a build), equal values in
                // condition order, as the ends are placed.
                var keys = [UInt64](repeating: 0, count: total)
                forEachEnd { g, v, c in
                    keys[place[g]] = UInt64(Self.orderedBits(Float(v))) << 32 | UInt64(UInt32(bitPattern: c))
                    place[g] += 1
                }
                let floats = FrozenBuffer<Float>.allocate(total)
                keys.withUnsafeMutableBufferPointer { all in
                    sortRuns(all) { $0.sort() }
                    for k in 0..<total {
                        (floats + k).initialize(to: Self.float(orderedBits: UInt32(truncatingIfNeeded: all[k] >> 32)))
                        (conditions + k).initialize(to: Int32(bitPattern: UInt32(truncatingIfNeeded: all[k])))
                    }
                }
                (ownedValues, values) = (FrozenBuffer(adopting: floats, count: total), UnsafeMutableRawPointer(floats))
            } else {
                var pairs = [(value: Double, condition: Int32)](repeating: (0, 0), count: total)
                forEachEnd { g, v, c in
                    pairs[place[g]] = (v, c)
                    place[g] += 1
                }
                let doubles = FrozenBuffer<Double>.allocate(total)
                pairs.withUnsafeMutableBufferPointer { all in
                    sortRuns(all) { $0.sort { $0.value < $1.value } }
                    for k in 0..<total {
                        (doubles + k).initialize(to: all[k].value)
                        (conditions + k).initialize(to: all[k].condition)
                    }
                }
                (ownedValues, values) = (FrozenBuffer(adopting: doubles, count: total), UnsafeMutableRawPointer(doubles))
            }
            let ownedStart = FrozenBuffer(start), ownedConditions = FrozenBuffer(adopting: conditions, count: total)
            raw = Ends(start: ownedStart.base, value: values, condition: ownedConditions.base)
            owners = [ownedStart, ownedValues, ownedConditions]
        }

        /// `f`'s bits as an unsigned integer in the order of the floats (negative ones flipped).
        private static func orderedBits(_ f: Float) -> UInt32 {
            let b = f.bitPattern
            return b & 0x8000_0000 != 0 ? ~b : b | 0x8000_0000
        }

        private static func float(orderedBits k: UInt32) -> Float {
            Float(bitPattern: k & 0x8000_0000 != 0 ? k & 0x7FFF_FFFF : ~k)
        }
    }
}

/// The cells of one attribute: `count` splits from `splits[first]`, so `count + 1` cells.
private struct Cut {
    let splits: [Double]
    let first: Int
    let count: Int

    /// The cell of `x`: how many splits are at or below it.
    func cell(_ x: Double) -> Int {
        guard count > 0 else { return 0 }
        return splits.withUnsafeBufferPointer { RangeLists.bound($0.baseAddress!, from: first, to: first + count, x, orEqual: true) } - first
    }

    func lower(_ j: Int) -> Double { j == 0 ? -.infinity : splits[first + j - 1] }
    func upper(_ j: Int) -> Double { j == count ? .infinity : splits[first + j] }
}
