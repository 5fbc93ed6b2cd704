extension IntervalCells {
    /// The index of `run[entries]`. Conditions are numbered in run order; the others are `residual`.
    init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
        var entryOf: [Int32] = []
        var residual: [Int32] = []
        // Every interval as a flat record, then grouped by attribute (a counting sort by key: records
        // are appended in condition order, so each group stays in it).
        var unsorted: [(key: Int32, condition: Int32, lo: Double, hi: Double)] = []
        var keyLimit = 0
        for e in entries {
            guard let list = Self.intervals(of: run[e], program: program) else {
                residual.append(Int32(e))
                continue
            }
            for i in list {
                unsorted.append((i.key, Int32(entryOf.count), i.lo, i.hi))
                keyLimit = max(keyLimit, Int(i.key) + 1)
            }
            entryOf.append(Int32(e))
        }
        var groupStart = [Int](repeating: 0, count: keyLimit + 1)
        for r in unsorted { groupStart[Int(r.key) + 1] += 1 }
        for k in 0..<keyLimit { groupStart[k + 1] += groupStart[k] }
        var records = unsorted
        var next = groupStart
        for r in unsorted {
            records[next[Int(r.key)]] = r
            next[Int(r.key)] += 1
        }
        unsorted = []
        let conditions = entryOf.count
        let words = max(1, (conditions + 63) / 64)
        var keys: [Int32] = []
        var groups: [Range<Int>] = []
        for k in 0..<keyLimit where groupStart[k] < groupStart[k + 1] {
            keys.append(Int32(k))
            groups.append(groupStart[k]..<groupStart[k + 1])
        }
        let attributes = keys.count
        // Cells per attribute in proportion to its intervals, within the memory allowance.
        let cellBudget = max(attributes, Self.cellBitsPerCondition)
        var splitStart: [Int32] = [0], splits: [Double] = []
        for g in groups {
            let share = max(1, cellBudget * g.count / max(records.count, 1))
            // Equi-depth over the finite ends: each cell holds about as many ends, so as many partials.
            // Quantiles of an evenly strided sample of at most ~32,768 ends are as good and cost no full sort.
            var ends: [Double] = []
            let stride = max(1, g.count / 16_384)
            ends.reserveCapacity(2 * g.count / stride + 2)
            for r in Swift.stride(from: g.lowerBound, to: g.upperBound, by: stride) {
                if records[r].lo.isFinite { ends.append(records[r].lo) }
                if records[r].hi.isFinite { ends.append(records[r].hi) }
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
        let totalCells = splits.count + attributes
        // Written in place in the buffer the index keeps (an array copied into it held the bitsets twice).
        let failBits = FrozenBuffer<UInt64>.allocate(totalCells * words)
        failBits.initialize(repeating: 0, count: totalCells * words)
        let ownedFail = FrozenBuffer(adopting: failBits, count: totalCells * words)
        var absentBits = [UInt64](repeating: 0, count: attributes * words)
        var partialLists = [[Partial]](repeating: [], count: totalCells)
        for (a, g) in groups.enumerated() {
            let first = Int(splitStart[a]), count = Int(splitStart[a + 1]) - first
            let base = first + a  // the attribute's first cell
            let cells = count + 1
            /// Cell of `x`: how many splits are at or below it.
            func cell(_ x: Double) -> Int {
                var lo = 0, hi = count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if splits[first + mid] <= x { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            func lower(_ j: Int) -> Double { j == 0 ? -.infinity : splits[first + j - 1] }
            func upper(_ j: Int) -> Double { j == count ? .infinity : splits[first + j] }
            // Fails from the cell after its `hi` on, and up to the cell before its `lo`: marked where the
            // run starts and swept into every cell after (before) it, a bitset copy per cell.
            var hiStart = [[Int32]](repeating: [], count: cells + 1)
            var loEnd = [[Int32]](repeating: [], count: cells + 1)
            for r in g {
                let rec = records[r]
                let c = Int(rec.condition)
                absentBits[a * words + c >> 6] |= 1 << UInt64(c & 63)
                let cl = cell(rec.lo), ch = cell(rec.hi)
                hiStart[ch + 1].append(rec.condition)
                loEnd[cl].append(rec.condition)  // fails in cells 0..<cl
                // Partial where the interval covers part of a cell it touches: only its two end cells can be.
                func partial(_ j: Int) {
                    if !(rec.lo <= lower(j) && rec.hi >= upper(j)) {
                        partialLists[base + j].append(Partial(lo: rec.lo, hi: rec.hi, condition: rec.condition))
                    }
                }
                if cl <= ch {
                    partial(cl)
                    if ch != cl { partial(ch) }
                }
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
        var partialStart: [Int32] = [0], partials: [Partial] = []
        for list in partialLists {
            partials += list
            partialStart.append(Int32(partials.count))
        }
        var attributeOfKey = [Int32](repeating: -1, count: max(keyLimit, 1))
        for (a, key) in keys.enumerated() { attributeOfKey[Int(key)] = Int32(a) }

        let ownedEntries = FrozenBuffer(entryOf), ownedAttributes = FrozenBuffer(attributeOfKey)
        let ownedSplitStart = FrozenBuffer(splitStart), ownedSplits = FrozenBuffer(splits)
        let ownedAbsent = FrozenBuffer(absentBits)
        let ownedPartialStart = FrozenBuffer(partialStart), ownedPartials = FrozenBuffer(partials)
        raw = Raw(conditions: conditions, words: words, attributes: attributes, entryOf: ownedEntries.base,
                  attributeOfKey: ownedAttributes.base, keyLimit: keyLimit, splitStart: ownedSplitStart.base,
                  splits: ownedSplits.base, failBits: ownedFail.base, absentBits: ownedAbsent.base,
                  partialStart: ownedPartialStart.base, partials: ownedPartials.base)
        owners = [ownedEntries, ownedAttributes, ownedSplitStart, ownedSplits, ownedFail, ownedAbsent, ownedPartialStart, ownedPartials]
        self.residual = residual
    }
}
