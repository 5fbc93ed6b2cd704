import CPrefetch

extension PredicateProgram {
    @inline(__always)
    func scan(_ entries: FrozenBuffer<Entry>, _ range: Range<Int>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let first = range.lowerBound
        tables.screenAndEvaluate(entries.base, count: range.count, i, events, scratch) { first &+ $0 }
    }

    /// Evaluates the entries listed in `scratch.listed[0..<listedCount]` for event `i` and empties the
    /// list. A listed value with `ProvenClause.flag` set is an entry whose first clause an index probe
    /// proved: evaluation starts at its second. Entry by entry, not through `screenAndEvaluate`'s
    /// mask: an index's candidates mostly pass the screen, so the branch predicts well, and building
    /// the mask cost more than it saved.
    @inline(__always)
    func scanListed(_ entries: FrozenBuffer<Entry>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        // Nothing listed (every candidate accepted): the event's properties need no slot table.
        guard scratch.listedCount > 0 else { return }
        let listed = scratch.listed, base = entries.base, tables = self.tables
        if scratch.indexedEvent != i { scratch.indexProperties(of: i, in: events) }
        let time = Self.timeKey(events.times[i]), action = events.actions[i]
        let present = scratch.presentKeys | (action >= 0 ? Self.keyBit(action) : 0)
        var evaluated = 0
        for k in 0..<scratch.listedCount {
            let v = listed[k]
            let e = base[Int(v & ProvenClause.entryMask)]
            guard Tables.passesScreen(e, timeKey: time, presentKeys: present) else { continue }
            if e.action >= 0 && e.action != action || scratch.alreadyMatched(e.trigger) { continue }
            evaluated &+= 1
            if tables.clausesHold(e, from: ProvenClause.provenClauses(v), event: i, in: events, scratch: scratch) { scratch.add(e.trigger) }
        }
        scratch.candidates &+= evaluated
        scratch.listedCount = 0
    }

    /// Matches the entries listed in `scratch.listed[0..<listedCount]` whose clauses are known to hold
    /// (a counted bucket's): each passes the entry screen (window, push action) and the de-duplication
    /// test, then is added without evaluating a predicate. Counted as candidates, like evaluated ones.
    /// A counted bucket lists plain entry numbers (no `ProvenClause.flag`).
    @inline(__always)
    func acceptListed(_ entries: FrozenBuffer<Entry>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let listed = scratch.listed, base = entries.base
        let time = Self.timeKey(events.times[i]), action = events.actions[i]
        var accepted = 0
        for k in 0..<scratch.listedCount {
            let e = base[Int(listed[k])]
            if e.admits(timeKey: time, action: action), scratch.add(e.trigger) { accepted &+= 1 }
        }
        scratch.candidates &+= accepted
        scratch.listedCount = 0
    }

    /// Starts loading what evaluating the listed entries reads, in three waves: the entries, then their
    /// first clause bounds and de-duplication stamps, then their first predicates. A crowd's candidates
    /// lie anywhere in a run of up to 100,000 entries, so each of those reads missed the cache in turn;
    /// issued for all candidates at once, the misses of a wave overlap.
    @inline(__always)
    func prefetchListed(_ entries: FrozenBuffer<Entry>, _ scratch: MatchScratch) {
        let listed = scratch.listed, n = scratch.listedCount
        guard n > 1 else { return }
        let base = entries.base
        for k in 0..<n { Self.prefetch(base + Int(listed[k] & ProvenClause.entryMask)) }
        let clauseStart = tables.clauseStart, stamps = scratch.stamps
        for k in 0..<n {
            let e = base + Int(listed[k] & ProvenClause.entryMask)
            Self.prefetch(clauseStart + Int(e.pointee.clauseStart))
            Self.prefetch(stamps + Int(e.pointee.trigger))
        }
        let predicates = tables.predicates
        // The first clause's predicate even when it is proven: the next one is its neighbour, and adding
        // the skip here cost crowded-100k 29 instructions per event for no time gained.
        for k in 0..<n {
            let e = base + Int(listed[k] & ProvenClause.entryMask)
            Self.prefetch(predicates + Int(clauseStart[Int(e.pointee.clauseStart)]))
        }
    }

    @inline(__always)
    static func prefetch<T>(_ p: UnsafeMutablePointer<T>) {
        trigger_bench_prefetch_address(UInt(bitPattern: Int(bitPattern: p)))
    }

    /// Exact three-way comparison of two compact numbers (Int64 or Double bits).
    @inlinable @inline(__always)
    static func compareNumbers(_ at: UInt8, _ a: UInt64, _ bt: UInt8, _ b: UInt64) -> Int {
        let intTag = ValueTag.int.rawValue
        if at == intTag, bt == intTag {
            let x = Int64(bitPattern: a), y = Int64(bitPattern: b)
            return x < y ? -1 : (x == y ? 0 : 1)
        }
        if at != intTag, bt != intTag {
            let x = Double(bitPattern: a), y = Double(bitPattern: b)
            return x < y ? -1 : (x == y ? 0 : 1)
        }
        if at == intTag { return NumberComparison.compare(int: Int64(bitPattern: a), double: Double(bitPattern: b)) }
        return -NumberComparison.compare(int: Int64(bitPattern: b), double: Double(bitPattern: a))
    }
}

extension PredicateProgram.Tables {
    /// Evaluates `count` entries (the k-th is `entries[entry(k)]`) for event `i` in runs of up to 64: a
    /// branch-free pass screens every entry of the run (`Self.passesScreen`) into a bit mask, then
    /// only the survivors' clauses are evaluated. Screening entry by entry cost a hard-to-predict jump
    /// per entry; the mask leaves one loop exit per run. A method of the six table pointers rather than
    /// of the program, so the loop reads them from registers.
    @inline(__always)
    func screenAndEvaluate(_ entries: UnsafeMutablePointer<PredicateProgram.Entry>, count: Int, _ i: Int, _ events: EventView,
                           _ scratch: MatchScratch, entry: (Int) -> Int) {
        if scratch.indexedEvent != i { scratch.indexProperties(of: i, in: events) }
        let time = PredicateProgram.timeKey(events.times[i]), action = events.actions[i]
        // The event's action joins its property keys in the presence bits (see `Entry.requiredKeys`).
        let present = scratch.presentKeys | (action >= 0 ? PredicateProgram.keyBit(action) : 0)
        var evaluated = 0
        var run = 0
        while run < count {
            let runEnd = min(run &+ 64, count)
            var survivors: UInt64 = 0
            var k = runEnd
            while k > run {
                k &-= 1
                let pass = Self.passesScreen(entries[entry(k)], timeKey: time, presentKeys: present)
                survivors = survivors &<< 1 | UInt64(pass ? 1 : 0)
            }
            while survivors != 0 {
                let k = run &+ survivors.trailingZeroBitCount
                survivors &= survivors &- 1
                let e = entries[entry(k)]
                // The action's bit passed the screen; the action itself is checked here (rarely reached: push clicks).
                if e.action >= 0 && e.action != action || scratch.alreadyMatched(e.trigger) { continue }
                evaluated &+= 1
                if clausesHold(e, event: i, in: events, scratch: scratch) { scratch.add(e.trigger) }
            }
            run = runEnd
        }
        scratch.candidates &+= evaluated
    }

    /// The entry's cheap necessary conditions, without a branch: the trigger's time window (one
    /// unsigned range test on `timeKey`s) and the required property keys and push action (one mask
    /// test against the event's `MatchScratch.presentKeys` and action bit). A bucket scan computes
    /// this for a run of entries at once and evaluates clauses only for those passing.
    @inlinable @inline(__always)
    static func passesScreen(_ entry: PredicateProgram.Entry, timeKey: Int64, presentKeys: UInt64) -> Bool {
        // Bitwise `&` of 0/1 words instead of `&&`: every test is computed, none is a jump.
        let inWindow = UInt64(entry.covers(timeKey: timeKey) ? 1 : 0)
        let keysPresent = UInt64(entry.requiredKeys & ~presentKeys == 0 ? 1 : 0)
        return inWindow & keysPresent != 0
    }

    /// Every clause of the entry (a conjunction of disjunctions) from its `skip`th on (those before are
    /// known to hold). The event's properties must be indexed in `scratch`.
    @inlinable @inline(__always)
    func clausesHold(_ entry: PredicateProgram.Entry, from skip: Int = 0, event i: Int, in events: EventView, scratch: MatchScratch) -> Bool {
        var clause = Int(entry.clauseStart) &+ skip
        let end = Int(entry.clauseEnd)
        while clause < end {
            var p = Int(clauseStart[clause])
            let pEnd = Int(clauseStart[clause + 1])
            var any = false
            while p < pEnd {
                if predicateHolds(p, event: i, in: events, scratch: scratch) {
                    any = true
                    break
                }
                p += 1
            }
            if !any { return false }
            clause += 1
        }
        return true
    }

    @inlinable @inline(__always)
    func predicateHolds(_ index: Int, event i: Int, in events: EventView, scratch: MatchScratch) -> Bool {
        let p = predicates[index]
        let at = scratch.propertySlot(p.key, of: i)
        guard at >= 0 else { return p.holdsOnMissing }
        let tag = events.propertyTags[at]
        guard (1 << tag) & p.tagMask != 0 else { return p.holdsOnMissing }
        let bits = events.propertyBits[at]
        switch p.code {
        case .exists: return true
        case .notExists: return false
        case .numEq: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) == 0
        case .numNe: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) != 0
        case .numGt: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) > 0
        case .numGte: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) >= 0
        case .numLt: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) < 0
        case .numLte: return PredicateProgram.compareNumbers(tag, bits, p.constTag, p.constBits) <= 0
        case .numIn, .numNotIn:
            var found = false
            for s in Int(p.aux)..<Int(p.aux + p.auxCount)
            where PredicateProgram.compareNumbers(tag, bits, numberSetTags[s], numberSetBits[s]) == 0 {
                found = true
                break
            }
            return found == (p.code == .numIn)
        case .strEq: return bits == p.constBits
        case .strNe: return bits != p.constBits
        case .strIn, .strNotIn:
            let id = Int32(truncatingIfNeeded: bits)
            var lo = Int(p.aux), hi = Int(p.aux + p.auxCount)
            while lo < hi {
                let mid = (lo + hi) >> 1
                if stringSets[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            let found = lo < Int(p.aux + p.auxCount) && stringSets[lo] == id
            return found == (p.code == .strIn)
        case .regex: return regexMatches(slot: Int(p.aux), literal: p.auxCount, string: Int(bits), in: events, scratch: scratch)
        case .notRegex: return !regexMatches(slot: Int(p.aux), literal: p.auxCount, string: Int(bits), in: events, scratch: scratch)
        case .boolEq: return bits == p.constBits
        case .boolNe: return bits != p.constBits
        default:
            if p.code.rawValue >= PredicateProgram.Code.regexSearch.rawValue {
                return search(Int(p.aux), literal: p.auxCount, Int(bits), events) == (p.code == .regexSearch)
            }
            let d = Double(bitPattern: bits), c = Double(bitPattern: p.constBits), t = events.times[i]
            switch p.code {
            case .dateBefore: return d < c
            case .dateAfter: return d > c
            case .dateLessThanAgo: return d <= t && t - d < c
            case .dateMoreThanAgo: return d <= t && t - d > c
            case .dateInLessThan: return d >= t && d - t < c
            default: return d >= t && d - t > c
            }
        }
    }

    /// The regex in `slot` searched in string `id`'s bytes: by its literal-only form at `literal` in
    /// `literals` when it has one (-1: none) and that is exact for the text, else by the regex object.
    @inlinable @inline(__always)
    func search(_ slot: Int, literal: Int32, _ id: Int, _ events: EventView) -> Bool {
        let text = events.utf8(id)
        if literal >= 0, let answer = LiteralPattern.matches(flat: literals + Int(literal), text.start, count: text.count) {
            return answer
        }
        return regexes[slot].search(text.start, count: text.count)
    }

    /// The regex in `slot` searched in string `id`, memoised per (slot, string) in the scratch.
    @inlinable
    func regexMatches(slot: Int, literal: Int32, string id: Int, in events: EventView, scratch: MatchScratch) -> Bool {
        guard let cell = scratch.regexMemoCell(slot: slot, string: id) else { return search(slot, literal: literal, id, events) }
        if cell.pointee == 0 { cell.pointee = search(slot, literal: literal, id, events) ? 2 : 1 }
        return cell.pointee == 2
    }
}
