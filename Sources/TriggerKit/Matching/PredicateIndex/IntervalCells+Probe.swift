#if canImport(CPrefetch)
import CPrefetch
#endif

extension IntervalCells {
    /// Leaves in `area` (`scratchWords` words of the caller's scratch) the bitset of the indexed
    /// conditions that fail for event `i`: every one left unset holds (`forEachHolding`). Returns
    /// false when a value cannot be compared exactly as a double (an integer beyond 2^53): the caller
    /// then evaluates the indexed conditions one by one.
    @inline(__always)
    static func probe(_ r: Raw, _ i: Int, _ events: EventView, area: UnsafeMutablePointer<UInt64>) -> Bool {
        let words = r.words, attributes = r.attributes
        let bits = area, cellOf = area + words, valueOf = cellOf + attributes
        cellOf.update(repeating: .max, count: attributes)
        // The event's properties are sorted by key id, and the attributes' ids are the smallest.
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = Int(events.propertyKeys[p])
            if key >= r.keyLimit { break }
            let a = Int(r.attributeOfKey[key])
            let tag = events.propertyTags[p]
            guard a >= 0, tag == ValueTag.int.rawValue || tag == ValueTag.double.rawValue else { continue }
            guard let v = RangeLists.exactProbe(tag: tag, bits: events.propertyBits[p]) else { return false }
            // The cell: past every split at or below the value (cells of `a` are numbered from `first + a`).
            let past = firstPast(r.splits, from: Int(r.splitStart[a]), to: Int(r.splitStart[a &+ 1]), v, orEqual: true)
            cellOf[a] = UInt64(past &+ a)
            valueOf[a] = v.bitPattern
        }
        // The conditions that fail: per attribute, those missing its cell, or all that constrain it.
        for a in 0..<attributes {
            let g = cellOf[a]
            let source = g == .max ? r.absentBits + a &* words : r.failBits + Int(g) &* words
            if a == 0 {
                bits.update(from: source, count: words)
            } else {
                for w in 0..<words { bits[w] |= source[w] }
            }
        }
        // Ends inside the value's cell: in each sorted run, the failing side found by binary search and
        // marked without a comparison per end (low ends above the value, high ends below it).
        for a in 0..<attributes where cellOf[a] != .max {
            let g = Int(cellOf[a])
            let v = Double(bitPattern: valueOf[a])
            let lows = r.lows, highs = r.highs
            let loEnd = Int(lows.start[g &+ 1])
            for k in firstPast(lows.value, from: Int(lows.start[g]), to: loEnd, v, orEqual: true)..<loEnd {
                mark(bits, lows.condition[k])
            }
            let hiStart = Int(highs.start[g])
            for k in hiStart..<firstPast(highs.value, from: hiStart, to: Int(highs.start[g &+ 1]), v, orEqual: false) {
                mark(bits, highs.condition[k])
            }
        }
        return true
    }

    /// Calls `body` with the number of every condition left unset in `area` by `probe`.
    @inline(__always)
    static func forEachHolding(_ r: Raw, area bits: UnsafeMutablePointer<UInt64>, _ body: (Int) -> Void) {
        let words = r.words, tail = r.conditions & 63
        for w in 0..<words {
            var m = ~bits[w]
            if w == words &- 1, tail != 0 { m &= (1 << UInt64(tail)) &- 1 }
            while m != 0 {
                body(w << 6 | m.trailingZeroBitCount)
                m &= m &- 1
            }
        }
    }

    /// Starts loading the cache line at `p`.
    @inline(__always)
    static func prefetch<T>(_ p: UnsafeMutablePointer<T>) {
        trigger_bench_prefetch_address(UInt(bitPattern: p))
    }

    @inline(__always)
    static func mark(_ bits: UnsafeMutablePointer<UInt64>, _ c: Int32) {
        bits[Int(c) >> 6] |= 1 << UInt64(c & 63)
    }

    /// The first position in `first..<end` of the sorted `values` whose value is above `v` (with
    /// `orEqual`) or not below it, as `RangeLists.bound` finds it but without a branch per step: the
    /// few hundred ends of a cell cost a mispredicted branch at each level of a branching search, and
    /// a select in the loop is turned back into a branch by the compiler, so the step is a mask.
    @inline(__always)
    static func firstPast(_ values: UnsafePointer<Double>, from first: Int, to end: Int, _ v: Double, orEqual: Bool) -> Int {
        var base = first, n = end &- first
        guard n > 0 else { return first }
        while n > 1 {
            let half = n >> 1
            let x = values[base &+ half]
            base &+= half & (0 &- Int(unsafeBitCast(orEqual ? x <= v : x < v, to: UInt8.self)))
            n &-= half
        }
        let x = values[base]
        return base &+ Int(unsafeBitCast(orEqual ? x <= v : x < v, to: UInt8.self))
    }
}
