extension PredicateIndexMatcher {
    /// Lists the literal-filed conditions of crowd `index` (of `bucket`) that event `i`'s strings hold,
    /// each once: a mark per condition (numbered within the bucket's span) records the listed ones.
    /// `spanStart`: the first entry of the bucket's span. A condition that is one literal-only regex alone
    /// (`CrowdIndex.literalExact`) is checked against the text here, with `literals` (the program's), and
    /// accepted without evaluation; one the check cannot decide is listed. Out of line, and static:
    /// only crowds with regex literals come here, and a method of the matcher made every `match` copy
    /// the matcher.
    @inline(never)
    static func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, spanStart: Int, entries: UnsafeMutablePointer<PredicateProgram.Entry>,
                              literals: UnsafeMutablePointer<UInt64>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let marks = scratch.beginMarking(conditions: index.pointee.literals.conditions)
        let stamp = UInt64(scratch.markStamp) << 32
        @inline(__always) func firstTime(_ e: Int32) -> Bool {
            let c = Int(e) &- spanStart
            guard marks[c] != stamp else { return false }
            marks[c] = stamp
            return true
        }
        let exact = index.pointee.literalExact
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            guard index.pointee.literalKeyBits & PredicateProgram.keyBit(key) != 0, events.propertyTags[p] == ValueTag.string.rawValue else { continue }
            let text = events.utf8(Int(events.propertyBits[p]))
            let found = probeLiterals(index, key: key, text: text) { k in
                let e = index.pointee.equalityEntries[k]
                guard firstTime(e) else { return }
                let literal = exact.count > 0 ? exact[k] : -1
                guard literal >= 0, let holds = LiteralPattern.matches(flat: literals + Int(literal), text.start, count: text.count) else {
                    scratch.appendListed(e)
                    return
                }
                if holds { accept(entries[Int(e)], i, events, scratch) }
            }
            guard found else {
                // A text folded outside ASCII: every literal-filed condition, and nothing more to probe.
                for e in index.pointee.literals.entries where firstTime(e) { scratch.appendListed(e) }
                return
            }
        }
    }

    /// Hands `found` the position in `equalityEntries` of each condition of crowd `index` filed
    /// under a literal key (`LiteralKeys`) that `text` of property `key` holds: the prefixes of the
    /// text, then every gram at every position. False, finding nothing, for a text RE2 would fold
    /// outside ASCII.
    @inline(__always)
    static func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, key: Int32, text: (start: UnsafePointer<UInt8>, count: Int),
                              _ found: (Int) -> Void) -> Bool {
        @inline(__always) func list(_ r: CrowdIndex.PoolRange) {
            for k in Int(r.start)..<Int(r.end) { found(k) }
        }
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
