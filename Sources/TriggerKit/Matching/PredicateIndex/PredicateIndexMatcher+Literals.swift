extension PredicateIndexMatcher {
    /// Lists the literal-filed conditions of crowd `index` (of `bucket`) that event `i`'s strings hold,
    /// each once: a mark per condition (numbered within the bucket's run) records the listed ones.
    /// `run`: the first entry of the bucket's run. Out of line, and static: only crowds with regex
    /// literals come here, and a method of the matcher made every `match` copy the matcher.
    @inline(never)
    static func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, run: Int, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let marks = scratch.beginMarking(conditions: index.pointee.literals.conditions)
        let stamp = UInt64(scratch.markStamp) << 32
        @inline(__always) func listOnce(_ e: Int32) {
            let c = Int(e) &- run
            if marks[c] != stamp {
                marks[c] = stamp
                scratch.appendListed(e)
            }
        }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            guard index.pointee.literalKeys & PredicateProgram.keyBit(key) != 0, events.propertyTags[p] == ValueTag.string.rawValue else { continue }
            guard probeLiterals(index, key: key, string: Int(events.propertyBits[p]), events, listOnce) else {
                // A text folded outside ASCII: every literal-filed condition, and nothing more to probe.
                for e in index.pointee.literals.entries { listOnce(e) }
                return
            }
        }
    }

    /// Hands `list` each condition of crowd `index` filed under a literal key (`LiteralKeys`) that
    /// string `id` of property `key` holds: the prefixes of the text, then every gram at every
    /// position. False, listing nothing, for a text RE2 would fold outside ASCII.
    @inline(__always)
    static func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, key: Int32, string id: Int, _ events: EventView,
                       _ listOnce: (Int32) -> Void) -> Bool {
        @inline(__always) func list(_ r: CrowdIndex.PoolRange) {
            for k in Int(r.start)..<Int(r.end) { listOnce(index.pointee.equalityEntries[k]) }
        }
        let text = events.utf8(id)
        let base = text.start, n = text.count
        if ASCIIFold.foldsOutsideASCII(base, count: n) { return false }
        let equality = index.pointee.equality, filter = index.pointee.literals.filter
        var prefixes = LiteralKeys.PrefixHasher(base, count: n)
        for k in 0..<index.pointee.literals.prefixLengths.count {
            let length = Int(index.pointee.literals.prefixLengths[k])
            guard length <= n else { break }
            let hash = prefixes.hash(length: length), kind = LiteralKeys.prefixKind(length)
            if filter.mayHold(key, kind, hash), let r = equality.value(key: key, kind: kind, bits: hash) { list(r) }
        }
        let grams = index.pointee.literals.gramLengths
        guard grams != 0 else { return true }
        for at in 0..<n {
            let word = ASCIIFold.word(base, at: at, count: n)
            var lengths = grams
            while lengths != 0 {
                let g = lengths.trailingZeroBitCount
                lengths &= lengths &- 1
                if at &+ g > n { break }
                let kind = LiteralKeys.gramKind(g), gram = word & ASCIIFold.mask(g)
                if filter.mayHold(key, kind, gram), let r = equality.value(key: key, kind: kind, bits: gram) { list(r) }
            }
        }
        return true
    }
}
