/// The per-event path of `predicate-index`: each bucket of the event searched as its plan says.
extension PredicateIndexMatcher {
    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        matchBegun(i, in: events, scratch: scratch)
    }

    /// `match` after `scratch.begin()` (a delta snapshot stamps its masked triggers in between).
    @inline(__always)
    package func matchBegun(_ i: Int, in events: EventView, scratch: MatchScratch) {
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        // One search per event when the spans are merged (see `CompiledMatcher.match`).
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        searchBuckets(a, b, first, i, events, scratch)
    }

    /// Out of line, as in `CompiledMatcher.scanBuckets`: an event without a bucket returns from a small frame.
    @inline(never)
    func searchBuckets(_ a: Int32, _ b: Int32, _ first: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        search(first, i, events, scratch)
        if !spans.merged, a >= 0, b >= 0 { search(b, i, events, scratch) }
    }

    @inline(__always)
    func search(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        guard bucket < ownBuckets else {
            redirected.unsafelyUnwrapped.scan(bucket, i, events, scratch)
            return
        }
        let planned = plannedBuckets[Int(bucket)]
        if planned.isScanned {
            program.scan(spans.entries, spans.range(of: bucket), i, events, scratch)
            return
        }
        if !planned.isCrowd {
            decide(planned, bucket, i, events, scratch)
            return
        }
        // The index's candidates (and the residual conditions) are collected, then screened and
        // evaluated together like a scanned bucket.
        let raw = UnsafePointer(crowds.base + planned.position).pointer(to: \.raw)!
        CrowdIndex.list(raw, entries: spans.entries.base, i, events, scratch)
        if raw.pointee.literalKeyBits != 0 {
            CrowdIndex.listLiterals(raw, spanStart: spans.range(of: bucket).lowerBound, entries: spans.entries.base,
                                    literals: program.tables.literals, i, events, scratch)
        }
        program.prefetchListed(spans.entries, scratch)
        program.scanListed(spans.entries, i, events, scratch)
    }

    /// Adds `entry`, whose condition holds for event `i` (its only filter was found by a probe, and
    /// checked if a literal), when the trigger's window and the push action allow: the entry screen
    /// without the predicates, as a counted bucket accepts its entries. Counted as a candidate, like an
    /// evaluated one.
    @inline(__always)
    static func accept(_ entry: PredicateProgram.Entry, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if entry.admits(timeKey: PredicateProgram.timeKey(events.times[i]), action: events.actions[i]), scratch.add(entry.trigger) {
            scratch.candidates &+= 1
        }
    }

    /// A counted or cells bucket, whose index decides most conditions without evaluating them. Out of
    /// line: buckets this big are rare, and inlined it made every scan's frame bigger.
    @inline(never)
    func decide(_ planned: PlannedBucket, _ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if planned.isCells { return cut(planned.position, i, events, scratch) }
        count(planned.position, bucket, i, events, scratch)
    }

    /// A counted bucket: the conditions whose clauses the event's properties all satisfy (and those
    /// without clauses) pass the entry screen and match without evaluation; the residual ones are
    /// evaluated in full.
    @inline(__always)
    func count(_ counted: Int, _ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        // Each field read where it is used: a view copied once at the top had to be kept on the stack
        // across the scratch's writes, which the compiler cannot tell apart from the index's memory.
        let index = self.counted.base + counted
        if scratch.indexedEvent != i { scratch.indexProperties(of: i, in: events) }
        scratch.candidates &+= scratch.addAll(index.pointee.raw.everywhere, count: index.pointee.raw.everywhereCount)
        let always = index.pointee.raw.always
        for k in 0..<index.pointee.raw.alwaysCount { scratch.appendListed(always[k]) }
        CountingIndex.markSatisfied(index.pointee.raw, i, in: events, scratch: scratch, base: Int32(spans.range(of: bucket).lowerBound),
                                    tables: program.tables)
        program.acceptListed(spans.entries, i, events, scratch)
        let residual = index.pointee.raw.residual
        for k in 0..<index.pointee.raw.residualCount { scratch.appendListed(residual[k]) }
        program.scanListed(spans.entries, i, events, scratch)
    }

    /// A bucket of range subscriptions (`IntervalCells`): the conditions the cells say hold pass the
    /// entry screen and match; the bucket's other conditions are evaluated in full.
    @inline(__always)
    func cut(_ k: Int, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let r = (cells.unsafelyUnwrapped.base + k).pointee.raw
        let entries = spans.entries.base
        let area = scratch.cellArea(words: cellScratchWords)
        if IntervalCells.probe(r, i, events, area: area) {
            // In three walks over the bitset, each starting the next one's loads: the matches are
            // scattered over tables the bitsets pushed out of cache, and one walk waited for each load.
            IntervalCells.forEachHolding(r, area: area) { c in IntervalCells.prefetch(r.triggerOf + c) }
            let stamps = scratch.stamps
            IntervalCells.forEachHolding(r, area: area) { c in
                let t = r.triggerOf[c]
                if t >= 0 { IntervalCells.prefetch(stamps + Int(t)) } else { IntervalCells.prefetch(entries + Int(r.entryOf[c])) }
            }
            IntervalCells.forEachHolding(r, area: area) { c in
                let t = r.triggerOf[c]
                if t >= 0 {
                    if scratch.add(t) { scratch.candidates &+= 1 }
                } else {
                    Self.accept(entries[Int(r.entryOf[c])], i, events, scratch)
                }
            }
        } else {
            acceptExactly(k, i, events, scratch, area: area)
        }
        for c in 0..<r.residualCount { scratch.appendListed(r.residual[c]) }
        program.scanListed(spans.entries, i, events, scratch)
    }

    /// For an event with a value no double holds: the conditions a probe that skips such attributes
    /// leaves unset (`IntervalCells.probe`), those a skipped attribute constrains checked against their
    /// trigger's filters. Out of line: such values are rare.
    @inline(never)
    func acceptExactly(_ k: Int, _ i: Int, _ events: EventView, _ scratch: MatchScratch, area: UnsafeMutablePointer<UInt64>) {
        let index = cells.unsafelyUnwrapped.base + k
        let r = index.pointee.raw, cellOf = area + r.words, skippedCell = index.pointee.skippedCell
        _ = IntervalCells.probe(r, i, events, area: area, skipping: true)
        IntervalCells.forEachHolding(r, area: area) { c in
            let entry = spans.entries[Int(r.entryOf[c])]
            for a in 0..<r.attributes where cellOf[a] == skippedCell && r.absentBits[a &* r.words &+ c >> 6] & (1 << UInt64(c & 63)) != 0 {
                guard index.pointee.holdsExactly(c, of: origin.built.triggers[Int(entry.trigger)], on: a, i, events) else { return }
            }
            Self.accept(entry, i, events, scratch)
        }
    }
}
