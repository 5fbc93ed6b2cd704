extension CountingIndex {
    /// Marks, in `scratch`'s mark words, every clause event `i`'s properties satisfy, and lists each
    /// condition whose clauses all are (as a position in the run: `base` plus its number). The event's
    /// properties must be indexed in `scratch`; `tables` evaluate the checked predicates.
    /// Given the index's `raw` view: a method called on the index itself was handed a copy of it
    /// (its marks are writes the compiler could not tell apart from the index's memory), retaining
    /// and releasing each of its buffers on every visit.
    @inline(__always)
    static func markSatisfied(_ r: Raw, _ i: Int, in events: EventView, scratch: MatchScratch, base: Int32, tables: PredicateProgram.Tables) {
        let marks = scratch.beginMarking(conditions: r.conditions)
        let stamp = UInt64(scratch.markStamp) << 32
        let initial = r.initial, postings = r.postings, keyed = r.keyed
        let tagBounds = r.tagBounds, checked = r.checked
        let numberNe = r.numberNe, bitsNe = r.bitsNe
        let absentKeys = r.absentKeys, absentCount = r.absentKeyCount
        let keyBits = r.keyBits, keyIndex = r.keyIndex, equality = r.equality, clearing = r.clearing
        let markedAtStart = r.markedAtStart, markedAtStartCount = r.markedAtStartCount
        let ranges = ThresholdLists(thresholds: r.thresholds, postings: r.rangePostings)
        /// The condition's word for this event: one from an earlier event (another stamp) starts over.
        @inline(__always) func word(_ c: Int) -> UInt64 {
            let word = marks[c]
            return word & 0xFFFF_FFFF_0000_0000 == stamp ? word : stamp | UInt64(initial[c])
        }
        @inline(__always) func clear(_ posting: UInt32) {
            let c = Int(posting >> 5)
            marks[c] = word(c) & ~(1 << UInt64(posting & 31))
        }
        @inline(__always) func mark(_ posting: UInt32) {
            let c = Int(posting >> 5)
            let old = word(c)
            let marked = old | 1 << UInt64(posting & 31)
            marks[c] = marked
            if marked != old, UInt32(truncatingIfNeeded: marked) == .max { scratch.appendListed(base &+ Int32(c)) }
        }
        @inline(__always) func markAll(_ span: PoolRange) {
            var j = Int(span.start)
            while j < Int(span.end) {
                mark(postings[j])
                j &+= 1
            }
        }
        /// Where in `keyed` the postings of property `p`'s key are, when it has some and `p` is the
        /// slot evaluation reads (the last of repeated keys, so each key is seen once).
        @inline(__always) func keyedPosition(_ p: Int) -> Int32? {
            let key = events.propertyKeys[p]
            guard keyBits & PredicateProgram.keyBit(key) != 0, scratch.propertySlot(key, of: i) == p else { return nil }
            return keyIndex.position(of: key)
        }
        // Clearing first: a condition is listed when its last clause is marked, so every clause that
        // will be cleared must be cleared by then. (A cleared clause has one predicate: nothing marks it.)
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            guard let at = keyedPosition(p) else { continue }
            let k = keyed[Int(at)], key = events.propertyKeys[p]
            let tags = Int(k.clearTags) &+ Int(events.propertyTags[p])
            for j in Int(tagBounds[tags])..<Int(tagBounds[tags &+ 1]) { clear(postings[j]) }
            if let probe = CrowdIndex.EqualityKey(key: key, tag: events.propertyTags[p], bits: events.propertyBits[p]),
               let span = clearing[probe] {
                for j in Int(span.start)..<Int(span.end) { clear(postings[j]) }
            }
            for j in Int(k.clearChecked.start)..<Int(k.clearChecked.end)
            where !tables.predicateHolds(Int(checked[j].predicate), event: i, in: events, scratch: scratch) {
                clear(checked[j].posting)
            }
        }
        for a in 0..<absentCount where scratch.propertySlot(absentKeys[a].key, of: i) < 0 {
            markAll(keyed[Int(absentKeys[a].keyed)].absent)
        }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            guard let at = keyedPosition(p) else { continue }
            let k = keyed[Int(at)], key = events.propertyKeys[p]
            let tag = events.propertyTags[p], bits = events.propertyBits[p]
            let tags = Int(k.tags) &+ Int(tag)
            markAll(PoolRange(start: tagBounds[tags], end: tagBounds[tags &+ 1]))
            for j in Int(k.checked.start)..<Int(k.checked.end) where tables.predicateHolds(Int(checked[j].predicate), event: i, in: events, scratch: scratch) {
                mark(checked[j].posting)
            }
            if let probe = CrowdIndex.EqualityKey(key: key, tag: tag, bits: bits), let span = equality[probe] { markAll(span) }
            switch tag {
            case ValueTag.int.rawValue, ValueTag.double.rawValue:
                for j in Int(k.numberNe.start)..<Int(k.numberNe.end) {
                    let n = numberNe[j]
                    if PredicateProgram.compareNumbers(tag, bits, n.tag, n.bits) != 0 { mark(n.posting) }
                }
                markRanges(ranges, k, tag: tag, bits: bits, mark)
            case ValueTag.string.rawValue:
                for j in Int(k.stringNe.start)..<Int(k.stringNe.end) where bitsNe[j].bits != bits { mark(bitsNe[j].posting) }
            case ValueTag.bool.rawValue:
                for j in Int(k.boolNe.start)..<Int(k.boolNe.end) where bitsNe[j].bits != bits { mark(bitsNe[j].posting) }
            case ValueTag.date.rawValue:
                // The same arithmetic as `predicateHolds`, so a threshold decides exactly as evaluation would.
                let d = Double(bitPattern: bits), t = events.times[i]
                markThresholds(ranges, above: k.dateAbove, below: k.dateBelow, d, mark)
                if d <= t { markThresholds(ranges, above: k.agoAbove, below: k.agoBelow, t - d, mark) }
                if d >= t { markThresholds(ranges, above: k.inAbove, below: k.inBelow, d - t, mark) }
            default: break
            }
        }
        for k in 0..<markedAtStartCount {
            let c = Int(markedAtStart[k])
            if UInt32(truncatingIfNeeded: word(c)) == .max { scratch.appendListed(base &+ Int32(c)) }
        }
    }

    /// Marks the postings of `above` whose threshold is below `v` and those of `below` whose threshold
    /// is above it (both sorted by threshold): strictly, as `>`, `<` and the date operators compare, or
    /// with `inclusive` as `>=` and `<=` do.
    @inline(__always)
    static func markThresholds(_ lists: ThresholdLists, above: PoolRange, below: PoolRange, _ v: Double, inclusive: Bool = false,
                               _ mark: (UInt32) -> Void) {
        let thresholds = lists.thresholds, postings = lists.postings
        let end = RangeLists.bound(thresholds, from: Int(above.start), to: Int(above.end), v, orEqual: inclusive)
        for j in Int(above.start)..<end { mark(postings[j]) }
        let first = RangeLists.bound(thresholds, from: Int(below.start), to: Int(below.end), v, orEqual: !inclusive)
        for j in first..<Int(below.end) { mark(postings[j]) }
    }

    /// Marks the range predicates of one key that number `(tag, bits)` satisfies: a prefix or a suffix
    /// of each threshold-sorted list, found by binary search; compared one by one when the value is an
    /// integer beyond 2^53 (not exactly a double).
    @inline(__always)
    static func markRanges(_ lists: ThresholdLists, _ k: Keyed, tag: UInt8, bits: UInt64, _ mark: (UInt32) -> Void) {
        let thresholds = lists.thresholds, postings = lists.postings
        guard let v = RangeLists.exactProbe(tag: tag, bits: bits) else {
            let double = ValueTag.double.rawValue
            func each(_ span: PoolRange, _ holds: (Int) -> Bool) {
                for j in Int(span.start)..<Int(span.end) where holds(PredicateProgram.compareNumbers(tag, bits, double, thresholds[j].bitPattern)) {
                    mark(postings[j])
                }
            }
            each(k.gt) { $0 > 0 }
            each(k.gte) { $0 >= 0 }
            each(k.lt) { $0 < 0 }
            each(k.lte) { $0 <= 0 }
            return
        }
        // gt c holds when c < v; gte when c <= v; lt when c > v; lte when c >= v.
        markThresholds(lists, above: k.gt, below: k.lt, v, mark)
        markThresholds(lists, above: k.gte, below: k.lte, v, inclusive: true, mark)
    }

    /// The threshold-sorted range and date postings (`Raw.thresholds`, `Raw.rangePostings`): all a
    /// threshold search reads, so the out-of-line `markRanges` is not handed the whole view.
    struct ThresholdLists {
        let thresholds: UnsafeMutablePointer<Double>
        let postings: UnsafeMutablePointer<UInt32>
    }
}
