/// The per-event path of a crowd: the candidates its index returns for one event, appended to the
/// scratch's list for the matcher to screen and evaluate, and the conditions it decides accepted.
extension CrowdIndex {
    /// Lists the residual conditions of crowd `r` and those its equality, range and band probes return
    /// for event `i`; a condition filed as `~e` (its equality alone) is accepted through `entries`,
    /// the bucket's run. The view is read through its address, each field where it is used: passed
    /// by value, the whole view was copied at every call, though most events read a few of its
    /// fields. The closures capture only the scratch: capturing more copied it onto the stack on
    /// every call.
    @inline(__always)
    static func list(_ r: UnsafePointer<Raw>, entries: UnsafeMutablePointer<PredicateProgram.Entry>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        for k in 0..<r.pointee.residualCount { scratch.appendListed(r.pointee.residual[k]) }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            let tag = events.propertyTags[p]
            let bits = events.propertyBits[p]
            let keyBit = PredicateProgram.keyBit(key)
            if r.pointee.equalityKeyBits & keyBit != 0, let probe = EqualityKey(key: key, tag: tag, bits: bits), let found = r.pointee.equality[probe] {
                for k in Int(found.start)..<Int(found.end) {
                    let e = r.pointee.equalityEntries[k]
                    if e >= 0 { scratch.appendListed(e) } else { PredicateIndexMatcher.accept(entries[Int(~e)], i, events, scratch) }
                }
            }
            guard tag == ValueTag.int.rawValue || tag == ValueTag.double.rawValue else { continue }
            if r.pointee.rangeKeyBits & keyBit != 0, let at = r.pointee.rangeAt.position(of: key) {
                r.pointee.ranges[Int(at)].forEachCandidate(thresholds: r.pointee.rangeThresholds, entries: r.pointee.rangeEntries, tag: tag, bits: bits) {
                    scratch.appendListed($0)
                }
            }
            if r.pointee.bandKeyBits & keyBit != 0, let at = r.pointee.bandAt.position(of: key) {
                r.pointee.bands[Int(at)].forEachCandidate(lower: r.pointee.bandLower, upper: r.pointee.bandUpper, entries: r.pointee.bandEntries, tag: tag, bits: bits) {
                    scratch.appendListed($0)
                }
            }
        }
    }

    /// Lists the literal-filed conditions of crowd `r` that event `i`'s strings hold, each once: a
    /// mark per condition (numbered within the bucket's span) records the listed ones. `spanStart`:
    /// the first entry of the bucket's span. A condition that is one literal-only regex alone
    /// (`literalExact`) is checked against the text here, with `literals` (the program's), and
    /// accepted without evaluation; one the check cannot decide is listed. Out of line: only crowds
    /// with regex literals come here.
    @inline(never)
    static func listLiterals(_ r: UnsafePointer<Raw>, spanStart: Int, entries: UnsafeMutablePointer<PredicateProgram.Entry>,
                             literals: UnsafeMutablePointer<UInt64>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let marks = scratch.beginMarking(conditions: r.pointee.literals.conditions)
        let stamp = UInt64(scratch.markStamp) << 32
        @inline(__always) func firstTime(_ e: Int32) -> Bool {
            let c = Int(e) &- spanStart
            guard marks[c] != stamp else { return false }
            marks[c] = stamp
            return true
        }
        for p in Int(events.propertyStart[i])..<Int(events.propertyStart[i + 1]) {
            let key = events.propertyKeys[p]
            guard r.pointee.literalKeyBits & PredicateProgram.keyBit(key) != 0, events.propertyTags[p] == ValueTag.string.rawValue else { continue }
            let text = events.utf8(Int(events.propertyBits[p]))
            let found = probeLiterals(r, key: key, text: text) { k in
                let e = r.pointee.equalityEntries[k]
                guard firstTime(e) else { return }
                let literal = r.pointee.literalExactCount > 0 ? r.pointee.literalExact[k] : -1
                guard literal >= 0, let holds = LiteralPattern.matches(flat: literals + Int(literal), text.start, count: text.count) else {
                    scratch.appendListed(e)
                    return
                }
                if holds { PredicateIndexMatcher.accept(entries[Int(e)], i, events, scratch) }
            }
            guard found else {
                // A text folded outside ASCII: every literal-filed condition, and nothing more to probe.
                for k in 0..<r.pointee.literals.entryCount where firstTime(r.pointee.literals.entries[k]) { scratch.appendListed(r.pointee.literals.entries[k]) }
                return
            }
        }
    }

    /// Hands `found` the position in `equalityEntries` of each condition of crowd `r` filed under a
    /// literal key (`LiteralKeys`) that `text` of property `key` holds: the prefixes of the text, then
    /// every gram at every position. False, finding nothing, for a text RE2 would fold outside ASCII.
    @inline(__always)
    static func probeLiterals(_ r: UnsafePointer<Raw>, key: Int32, text: (start: UnsafePointer<UInt8>, count: Int), _ found: (Int) -> Void) -> Bool {
        @inline(__always) func list(_ range: PoolRange) {
            for k in Int(range.start)..<Int(range.end) { found(k) }
        }
        let base = text.start, n = text.count
        if ASCIIFold.foldsOutsideASCII(base, count: n) { return false }
        let equality = r.pointee.equality, filter = r.pointee.literals.filter
        var prefixes = LiteralKeys.PrefixHasher(base, count: n)
        for k in 0..<r.pointee.literals.prefixLengthCount {
            let length = Int(r.pointee.literals.prefixLengths[k])
            guard length <= n else { break }
            let hash = prefixes.hash(length: length), kind = LiteralKeys.prefixKind(length)
            if filter.mayHold(key, kind, hash), let range = equality.value(key: key, kind: kind, bits: hash) { list(range) }
        }
        let grams = r.pointee.literals.gramLengths
        guard grams != 0 else { return true }
        for at in 0..<n {
            let word = ASCIIFold.word(base, at: at, count: n)
            var lengths = grams
            while lengths != 0 {
                let g = lengths.trailingZeroBitCount
                lengths &= lengths &- 1
                if at &+ g > n { break }
                let kind = LiteralKeys.gramKind(g), gram = word & ASCIIFold.mask(g)
                if filter.mayHold(key, kind, gram), let range = equality.value(key: key, kind: kind, bits: gram) { list(range) }
            }
        }
        return true
    }
}
