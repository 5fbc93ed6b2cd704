/// Where one crowd search stands with regex literals: whether its candidates are being marked, and
/// whether it gave up and listed every literal-filed condition.
struct LiteralProbe {
    var marking = false
    var listedAll = false
}

extension PredicateIndexMatcher {
    /// Lists the conditions of crowd `index` filed under a literal key (`LiteralKeys`) that string `id`
    /// of property `key` holds: the prefixes of the text, then every gram at every position. A
    /// condition is listed once per event however often its gram occurs, by a mark per condition
    /// (numbered within the run starting at `run`). A text RE2 would fold outside ASCII lists every
    /// literal-filed condition instead. Out of line: only crowds with regex literals come here.
    @inline(never)
    func probeLiterals(_ index: UnsafeMutablePointer<CrowdIndex>, key: Int32, string id: Int, run: Int,
                       _ events: EventView, _ scratch: MatchScratch, _ probe: inout LiteralProbe) {
        guard !probe.listedAll else { return }
        if !probe.marking {
            _ = scratch.beginMarking(conditions: largestLiteralCrowd)
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
        var text = events.strings[id]
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }  // the empty text holds no literal
            let n = utf8.count
            if LiteralKeys.foldsOutsideASCII(base, count: n) {
                for e in index.pointee.literalEntries where marks[Int(e) &- run] != stamp {
                    marks[Int(e) &- run] = stamp
                    scratch.appendListed(e)
                }
                probe.listedAll = true
                return
            }
            let equality = index.pointee.equality
            for k in 0..<index.pointee.prefixLengths.count {
                let length = Int(index.pointee.prefixLengths[k])
                guard length <= n else { break }
                let hash = LiteralKeys.prefixHash(base, count: length)
                if let r = equality.value(key: key, kind: LiteralKeys.prefixKind(length), bits: hash) { list(r) }
            }
            let grams = index.pointee.gramLengths
            guard grams != 0 else { return }
            for at in 0..<n {
                let word = LiteralKeys.word(base, at: at, count: n)
                var lengths = grams
                while lengths != 0 {
                    let g = lengths.trailingZeroBitCount
                    lengths &= lengths &- 1
                    if at &+ g > n { break }
                    if let r = equality.value(key: key, kind: LiteralKeys.gramKind(g), bits: word & LiteralKeys.mask(g)) { list(r) }
                }
            }
        }
    }
}
