extension IntervalCells {
    /// Calls `holds` with the run position of every indexed condition whose intervals all hold for
    /// event `i`; `area` is `scratchWords` words of the caller's scratch. Returns false, having called
    /// nothing, when a value cannot be compared exactly as a double (an integer beyond 2^53): the
    /// caller then evaluates the indexed conditions one by one.
    @inline(__always)
    static func probe(_ r: Raw, _ i: Int, _ events: EventView, area: UnsafeMutablePointer<UInt64>, holds: (Int32) -> Void) -> Bool {
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
            let past = RangeLists.bound(r.splits, from: Int(r.splitStart[a]), to: Int(r.splitStart[a &+ 1]), v, orEqual: true)
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
        // Intervals that end inside the value's cell, compared exactly.
        for a in 0..<attributes where cellOf[a] != .max {
            let g = Int(cellOf[a])
            let v = Double(bitPattern: valueOf[a])
            let partials = r.partials
            for k in Int(r.partialStart[g])..<Int(r.partialStart[g &+ 1]) {
                let q = partials[k]
                let fails: UInt64 = v >= q.lo && v <= q.hi ? 0 : 1
                bits[Int(q.condition) >> 6] |= fails << UInt64(q.condition & 63)
            }
        }
        let tail = r.conditions & 63
        for w in 0..<words {
            var m = ~bits[w]
            if w == words &- 1, tail != 0 { m &= (1 << UInt64(tail)) &- 1 }
            while m != 0 {
                holds(r.entryOf[w << 6 | m.trailingZeroBitCount])
                m &= m &- 1
            }
        }
        return true
    }
}
