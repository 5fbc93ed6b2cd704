/// Where one crowd search stands with regex literals: whether its candidates are being marked, and
/// whether it gave up and listed every literal-filed condition.
struct LiteralProbe {
    var marking = false
    var listedAll = false
}

extension PredicateIndexMatcher {
    /// Lists the literal-filed conditions of crowd `index` (of `bucket`) that event `i`'s strings hold.
    @inline(never)
    func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, _ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        var probe = LiteralProbe()
        let run = runs.range(of: bucket).lowerBound
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            guard index.pointee.literalKeys & PredicateProgram.keyBit(key) != 0, events.propertyTags[p] == ValueTag.string.rawValue else { continue }
            probeLiterals(index, key: key, string: Int(events.propertyBits[p]), run: run, events, scratch, &probe)
        }
    }

    /// Lists the conditions of crowd `index` filed under a literal key (`LiteralKeys`) that string `id`
    /// of property `key` holds: the prefixes of the text, then every gram at every position. A
    /// condition is listed once per event however often its gram occurs, by a mark per condition
    /// (numbered within the run starting at `run`). A text RE2 would fold outside ASCII lists every
    /// literal-filed condition instead.
    @inline(__always)
    func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, key: Int32, string id: Int, run: Int,
                       _ events: EventView, _ scratch: MatchScratch, _ probe: inout LiteralProbe) {
        guard !probe.listedAll else { return }
        if !probe.marking {
            _ = scratch.beginMarking(conditions: index.pointee.literals.conditions)
            probe.marking = true
        }
        let marks = scratch.marks, stamp = UInt64(scratch.markStamp) << 32
        @inline(__always) func list(_ r: CrowdIndex.PoolRange) {
            for k in Int(r.start)..<Int(r.end) {
                let e = index.pointee.equalityEntries[k]
                let c = Int(e) &- run
                if marks[c] != stamp {
                    marks[c] = stamp
                    scratch.appendListed(e)
                }
            }
        }
        let text = events.utf8(id)
        let base = text.start
        let n = text.count
        if LiteralKeys.foldsOutsideASCII(base, count: n) {
            for e in index.pointee.literals.entries where marks[Int(e) &- run] != stamp {
                marks[Int(e) &- run] = stamp
                scratch.appendListed(e)
            }
            probe.listedAll = true
            return
        }
        let equality = index.pointee.equality, filter = index.pointee.literals.filter
        for k in 0..<index.pointee.literals.prefixLengths.count {
            let length = Int(index.pointee.literals.prefixLengths[k])
            guard length <= n else { break }
            let hash = LiteralKeys.prefixHash(base, count: length), kind = LiteralKeys.prefixKind(length)
            if filter.mayHold(key, kind, hash), let r = equality.value(key: key, kind: kind, bits: hash) { list(r) }
        }
        let grams = index.pointee.literals.gramLengths
        guard grams != 0 else { return }
        for at in 0..<n {
            let word = LiteralKeys.word(base, at: at, count: n)
            var lengths = grams
            while lengths != 0 {
                let g = lengths.trailingZeroBitCount
                lengths &= lengths &- 1
                if at &+ g > n { break }
                let kind = LiteralKeys.gramKind(g), gram = word & LiteralKeys.mask(g)
                if filter.mayHold(key, kind, gram), let r = equality.value(key: key, kind: kind, bits: gram) { list(r) }
            }
        }
    }
}
