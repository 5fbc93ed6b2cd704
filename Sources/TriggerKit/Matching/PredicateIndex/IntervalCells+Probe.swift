import CPrefetch

extension IntervalCells {
    /// Leaves in `area` (`scratchWords` words of the caller's scratch) the bitset of the indexed
    /// conditions that fail for event `i`: every one left unset holds (`forEachHolding`). Returns
    /// false, at once, when a value cannot be compared exactly as a double (an integer beyond 2^53 that
    /// no double holds: a strict bound moved to the next double is exact for doubles only). With
    /// `skipping`, such an attribute is skipped instead (put in the `skippedCell`), so the conditions
    /// left unset are a superset of those that hold, and the caller checks those on a skipped attribute
    /// (`holdsExactly`). A constant argument: the hot path's probe keeps its early return.
    @inline(__always)
    static func probe(_ r: Raw, _ i: Int, _ events: EventView, area: UnsafeMutablePointer<UInt64>, skipping: Bool = false) -> Bool {
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
            guard let exact = RangeLists.exactProbe(tag: tag, bits: events.propertyBits[p]) else {
                guard skipping else { return false }
                cellOf[a] = UInt64(r.splitStart[attributes]) + UInt64(attributes)  // `skippedCell`
                continue
            }
            // A NaN (only an embedder can send one) compares above every number, as +infinity does.
            let v = exact.isNaN ? .infinity : exact
            // The cell: past every split at or below the value (cells of `a` are numbered from `first + a`).
            let past = firstPast(r.splits, from: Int(r.splitStart[a]), to: Int(r.splitStart[a &+ 1]), v, orEqual: true)
            cellOf[a] = UInt64(past &+ a)
            valueOf[a] = v.bitPattern
        }
        let found = valueOf + attributes
        if r.narrowEnds {
            searchEnds(r, Float.self, cellOf: cellOf, valueOf: valueOf, found: found)
        } else {
            searchEnds(r, Double.self, cellOf: cellOf, valueOf: valueOf, found: found)
        }
        // The conditions that fail: per attribute, those missing its cell, or all that constrain it.
        // Four attributes' bitsets per pass (a short last group repeats one): the bitset is written
        // once per four reads, and four streams are read at once.
        func source(_ a: Int) -> UnsafeMutablePointer<UInt64> {
            let g = cellOf[a]
            return g == .max ? r.absentBits + a &* words : r.failBits + Int(g) &* words
        }
        bits.update(repeating: 0, count: words)
        var a = 0
        while a < attributes {
            let s0 = source(a), s1 = source(min(a &+ 1, attributes &- 1))
            let s2 = source(min(a &+ 2, attributes &- 1)), s3 = source(min(a &+ 3, attributes &- 1))
            for w in 0..<words { bits[w] |= s0[w] | s1[w] | s2[w] | s3[w] }
            a &+= 4
        }
        // Ends inside the value's cell: the failing side of each sorted run, marked without a comparison
        // per end (low ends above the value, high ends below it).
        for a in 0..<attributes where cellOf[a] != .max {
            let g = Int(cellOf[a])
            for k in Int(found[2 &* a])..<Int(r.lows.start[g &+ 1]) { mark(bits, r.lows.condition[k]) }
            for k in Int(r.highs.start[g])..<Int(found[2 &* a &+ 1]) { mark(bits, r.highs.condition[k]) }
        }
        return true
    }

    /// Per attribute `a` with a cell, into `found[2a]` the first of its cell's low ends above the value
    /// and into `found[2a + 1]` the first of its high ends not below it (`firstPast`); `found` has
    /// `4 × attributes` words, the second half for the searches' widths. All the binary searches go
    /// step by step together: each step's loads are independent, so their cache misses overlap
    /// instead of following one another (the end lists are rarely in cache). `V`: the ends' type
    /// (`Raw.narrowEnds`); each is compared as the double it is exactly.
    @inline(__always)
    static func searchEnds<V: BinaryFloatingPoint>(_ r: Raw, _: V.Type, cellOf: UnsafeMutablePointer<UInt64>,
                                                   valueOf: UnsafeMutablePointer<UInt64>, found: UnsafeMutablePointer<UInt64>) {
        let searches = 2 &* r.attributes, left = found + searches
        let lows = r.lows.value.assumingMemoryBound(to: V.self), highs = r.highs.value.assumingMemoryBound(to: V.self)
        for a in 0..<r.attributes {
            let g = Int(truncatingIfNeeded: cellOf[a])
            guard cellOf[a] != .max else {
                left[2 &* a] = 0
                left[2 &* a &+ 1] = 0
                continue
            }
            found[2 &* a] = UInt64(r.lows.start[g])
            left[2 &* a] = UInt64(r.lows.start[g &+ 1] &- r.lows.start[g])
            found[2 &* a &+ 1] = UInt64(r.highs.start[g])
            left[2 &* a &+ 1] = UInt64(r.highs.start[g &+ 1] &- r.highs.start[g])
        }
        // `found[k]` is the base and `left[k]` the width of search `k` (even: low ends, odd: high ends).
        var stepping = true
        while stepping {
            stepping = false
            for k in 0..<searches where left[k] > 1 {
                let n = Int(left[k]), half = n >> 1
                let high = k & 1 != 0
                let x = Double((high ? highs : lows)[Int(found[k]) &+ half])
                let v = Double(bitPattern: valueOf[k >> 1])
                found[k] &+= UInt64(half & (0 &- passes(x, v, orEqual: !high)))
                left[k] = UInt64(n &- half)
                stepping = true
            }
        }
        for k in 0..<searches where left[k] == 1 {
            let high = k & 1 != 0
            let x = Double((high ? highs : lows)[Int(found[k])])
            let v = Double(bitPattern: valueOf[k >> 1])
            found[k] &+= UInt64(passes(x, v, orEqual: !high))
        }
    }

    /// Whether indexed condition `c`, of `trigger`, holds for event `i` on attribute `a` by the
    /// trigger's own filters (found by their names' bytes), as `reference` decides (the compiled program keeps no predicates for
    /// it). Its filters on other attributes are left to the cells: each is one clause, so it holds here.
    func holdsExactly(_ c: Int, of trigger: Trigger, on a: Int, _ i: Int, _ events: EventView) -> Bool {
        let key = attributeKeys[a], spellings = attributeSpellings[a]
        return trigger.conditions[Int(raw.conditionOf[c])].filters.everyClauseHolds { f, _ in
            guard spellings.contains(where: { Self.sameBytes($0, f.property) }) else { return true }
            let p = events.property(key, of: i, for: f)
            return p < 0 ? f.op.holdsOnMissing : FilterEvaluation.holds(f, present: events.value(at: p), eventTime: events.times[i])
        }
    }

    /// Whether two strings have the same UTF-8 bytes: the same representation (a small string's bytes,
    /// or one storage) says so at once; otherwise the bytes are compared. Never allocates.
    @inline(__always)
    static func sameBytes(_ x: String, _ y: String) -> Bool {
        unsafeBitCast(x, to: (UInt64, UInt64).self) == unsafeBitCast(y, to: (UInt64, UInt64).self) || x.utf8.elementsEqual(y.utf8)
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
            base &+= half & (0 &- passes(x, v, orEqual: orEqual))
            n &-= half
        }
        let x = values[base]
        return base &+ passes(x, v, orEqual: orEqual)
    }

    /// 1 when a search for `v` moves past `x` (`x` below `v`, or equal with `orEqual`), else 0: an
    /// integer, not a Bool, so a search step is a mask and no branch.
    @inline(__always)
    static func passes(_ x: Double, _ v: Double, orEqual: Bool) -> Int {
        Int(unsafeBitCast(orEqual ? x <= v : x < v, to: UInt8.self))
    }
}
