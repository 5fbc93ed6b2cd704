/// Every trigger condition of a set compiled once into flat, typed predicates: constants typed at
/// load, string constants as interned ids (equality is an integer compare), `in` sets as sorted id
/// arrays, regexes compiled once with results memoised per interned string in the scratch.
/// A class, not a struct: an out-of-line bucket scan is passed a reference, not a copy of the program.
public final class PredicateProgram: Sendable {
    /// What a compiled predicate does; the type check is part of the opcode.
    @usableFromInline enum Code: UInt8, Sendable, BitwiseCopyable {
        case exists, notExists
        case numEq, numNe, numGt, numGte, numLt, numLte, numIn, numNotIn
        case strEq, strNe, strIn, strNotIn, regex, notRegex
        case boolEq, boolNe
        case dateBefore, dateAfter, dateLessThanAgo, dateMoreThanAgo, dateInLessThan, dateInMoreThan
    }

    @usableFromInline struct Predicate: Sendable, BitwiseCopyable {
        @usableFromInline var key: Int32
        @usableFromInline var code: Code
        /// Bit `1 << tag` is set for each `ValueTag` of the filter's type (number: int and double).
        @usableFromInline var tagMask: UInt8
        @usableFromInline var holdsOnMissing: Bool
        @usableFromInline var constTag: UInt8
        @usableFromInline var constBits: UInt64
        /// Start in the set pools (`in`/`not_in`) or the regex slot.
        @usableFromInline var aux: Int32
        @usableFromInline var auxCount: Int32
    }

    /// A compiled condition: its clauses `clauseStart..<clauseEnd` and, for push clicks, the action id.
    @usableFromInline struct CompiledCondition: Sendable {
        @usableFromInline var clauseStart: Int32
        @usableFromInline var clauseEnd: Int32
        /// -1 any (or not a push condition); -2 names an action no event can carry.
        @usableFromInline var action: Int32
        /// `keyBit` of every property the condition cannot hold without (see `Entry.requiredKeys`).
        @usableFromInline var requiredKeys: UInt64
    }

    /// A property key's bit in a 64-bit presence filter: events set it for each key they carry, so a
    /// bit an event lacks proves the key absent (two keys may share a bit; that only weakens the test).
    @inlinable @inline(__always)
    static func keyBit(_ key: Int32) -> UInt64 { 1 &<< (UInt64(truncatingIfNeeded: key) & 63) }

    @usableFromInline let predicates: FrozenBuffer<Predicate>
    /// Clause `c` is `predicates[clauseStart[c]..<clauseStart[c + 1]]`.
    @usableFromInline let clauseStart: FrozenBuffer<Int32>
    /// Condition `(t, k)` is `conditions[conditionStart[t] + k]`.
    @usableFromInline let conditions: [CompiledCondition]
    @usableFromInline let conditionStart: [Int32]
    /// Each trigger's window bounds as `timeKey`s (see `Entry.windowFrom`).
    @usableFromInline let windowFrom: [Int64]
    @usableFromInline let windowTo: [Int64]
    @usableFromInline let stringSets: FrozenBuffer<Int32>
    @usableFromInline let numberSetTags: FrozenBuffer<UInt8>
    @usableFromInline let numberSetBits: FrozenBuffer<UInt64>
    /// Distinct regexes; a predicate's `aux` is its slot here.
    public let regexes: [CompiledRegex]
    @usableFromInline let regexBuffer: FrozenBuffer<CompiledRegex>
    /// Raw views of the buffers above for the evaluation loops (valid while this program lives).
    @usableFromInline let tables: Tables

    /// What evaluation reads, as plain pointers: a loop that binds these once keeps them in registers
    /// instead of reloading each buffer reference from the program for every entry.
    @usableFromInline struct Tables: @unchecked Sendable {
        @usableFromInline let predicates: UnsafeMutablePointer<Predicate>
        @usableFromInline let clauseStart: UnsafeMutablePointer<Int32>
        @usableFromInline let stringSets: UnsafeMutablePointer<Int32>
        @usableFromInline let numberSetTags: UnsafeMutablePointer<UInt8>
        @usableFromInline let numberSetBits: UnsafeMutablePointer<UInt64>
        @usableFromInline let regexes: UnsafeMutablePointer<CompiledRegex>
    }

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        // Built in place: `FrozenBuffer.Builder` grows by realloc and is frozen without a copy (shrunk to
        // size). The first capacities are guesses (a few filters per trigger); any count just grows.
        var predicates = FrozenBuffer<Predicate>.Builder(capacity: 4 * set.triggers.count)
        var clauseStart = FrozenBuffer<Int32>.Builder(capacity: 2 * set.triggers.count + 1)
        clauseStart.append(0)
        var conditions: [CompiledCondition] = []
        var conditionStart: [Int32] = []
        var stringSets = FrozenBuffer<Int32>.Builder()
        var numberTags = FrozenBuffer<UInt8>.Builder()
        var numberBits = FrozenBuffer<UInt64>.Builder()
        var regexes: [CompiledRegex] = []
        var regexSlot = RegexSlots()
        let symbols = SymbolTable.Resolver(vocabulary.symbols)

        var windowFrom: [Int64] = [], windowTo: [Int64] = []
        windowFrom.reserveCapacity(set.triggers.count)
        windowTo.reserveCapacity(set.triggers.count)
        conditionStart.reserveCapacity(set.triggers.count)
        // Indices, not `for trigger in set.triggers`: copying each Trigger out of the array retained and
        // released every field (rebuilding the set is a publication's cost).
        for t in set.triggers.indices {
            conditionStart.append(Int32(conditions.count))
            windowFrom.append(Self.timeKey(set.triggers[t].startTime ?? -.infinity))
            windowTo.append(Self.timeKey(set.triggers[t].endTime ?? .infinity))
            let triggerConditions = set.triggers[t].conditions
            for k in triggerConditions.indices {
                let first = Int32(clauseStart.count - 1)
                let clauses = triggerConditions[k].filters.clauses
                var requiredKeys: UInt64 = 0
                for ci in clauses.indices {
                    let clauseFirst = predicates.count
                    for fi in clauses[ci].indices {
                        let f = clauses[ci][fi]
                        var p = Predicate(
                            key: symbols.lookup(f.property)!, code: .exists, tagMask: Self.tagMask(f.type),
                            holdsOnMissing: f.op.holdsOnMissing, constTag: 0, constBits: 0, aux: 0, auxCount: 0)
                        switch (f.op, f.operand) {
                        case (.exists, _): p.code = .exists
                        case (.notExists, _): p.code = .notExists
                        case (_, .number(let c)):
                            p.code = Self.numberCode(f.op)
                            (p.constTag, p.constBits) = Self.numberBits(c)
                        case (_, .numbers(let list)):
                            p.code = f.op == .in ? .numIn : .numNotIn
                            p.aux = Int32(numberTags.count)
                            p.auxCount = Int32(list.count)
                            for c in list {
                                let (t, b) = Self.numberBits(c)
                                numberTags.append(t)
                                numberBits.append(b)
                            }
                        case (_, .string(let s)):
                            p.code = f.op == .eq ? .strEq : .strNe
                            p.constBits = UInt64(symbols.lookup(s)!)
                        case (_, .strings(let list)):
                            p.code = f.op == .in ? .strIn : .strNotIn
                            // Sorted and made a set in place at the pool's end (no array per filter).
                            let first = stringSets.count
                            for s in list.indices { stringSets.append(symbols.lookup(list[s])!) }
                            let count = Self.sortUniqueTail(&stringSets, from: first)
                            p.aux = Int32(first)
                            p.auxCount = Int32(count)
                        case (_, .regex(let re)):
                            p.code = f.op == .regex ? .regex : .notRegex
                            p.aux = regexSlot.slot(of: re, next: Int32(regexes.count))
                            if p.aux == regexes.count { regexes.append(re) }
                        case (_, .bool(let b)):
                            p.code = f.op == .eq ? .boolEq : .boolNe
                            p.constBits = b ? 1 : 0
                        case (_, .seconds(let s)):
                            p.code = Self.dateCode(f.op)
                            p.constBits = s.bitPattern
                        case (_, .none):
                            preconditionFailure("operand missing for \(f.op)")
                        }
                        predicates.append(p)
                    }
                    clauseStart.append(Int32(predicates.count))
                    // A clause whose predicates all test one property and all fail when it is missing
                    // needs that property: the condition cannot hold on an event without it.
                    if clauseFirst < predicates.count {
                        let key = predicates[clauseFirst].key
                        var needed = true
                        for q in clauseFirst..<predicates.count where predicates[q].key != key || predicates[q].holdsOnMissing {
                            needed = false
                            break
                        }
                        if needed { requiredKeys |= Self.keyBit(key) }
                    }
                }
                var action: Int32 = -1
                if case .pushClick(_, let a?) = triggerConditions[k] { action = symbols.lookup(a) ?? -2 }
                conditions.append(CompiledCondition(clauseStart: first, clauseEnd: Int32(clauseStart.count - 1), action: action,
                                                    requiredKeys: requiredKeys))
            }
        }
        self.predicates = predicates.freeze()
        self.clauseStart = clauseStart.freeze()
        self.conditions = conditions
        self.conditionStart = conditionStart
        self.stringSets = stringSets.freeze()
        self.numberSetTags = numberTags.freeze()
        self.numberSetBits = numberBits.freeze()
        self.regexes = regexes
        regexBuffer = FrozenBuffer(regexes)
        self.windowFrom = windowFrom
        self.windowTo = windowTo
        tables = Tables(predicates: self.predicates.base, clauseStart: self.clauseStart.base, stringSets: self.stringSets.base,
                        numberSetTags: self.numberSetTags.base, numberSetBits: self.numberSetBits.base, regexes: regexBuffer.base)
    }

    /// The memo slot of each distinct regex object of a build. Keyed by identity: the decoder shares one
    /// `CompiledRegex` per distinct pattern, so that is one slot per pattern, found without hashing the
    /// pattern's text for every regex filter of every rebuild. Open addressing on the object's address
    /// (cheaper than a dictionary here); 0 marks an empty cell.
    struct RegexSlots {
        private var keys = [UInt](repeating: 0, count: 64)
        private var slots = [Int32](repeating: 0, count: 64)
        private var used = 0

        /// The slot of `re`, or `next` (recorded as its slot) when `re` is new.
        mutating func slot(of re: CompiledRegex, next: Int32) -> Int32 {
            let key = UInt(bitPattern: ObjectIdentifier(re))
            let i = cell(of: key)
            if keys[i] == key { return slots[i] }
            keys[i] = key
            slots[i] = next
            used += 1
            if used * 2 > keys.count { grow() }
            return next
        }

        /// The cell holding `key`, or the empty cell where it belongs: linear probing from its Fibonacci
        /// hash (the address's low bits are alignment zeros).
        private func cell(of key: UInt) -> Int {
            var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(64 - keys.count.trailingZeroBitCount))
            while keys[i] != 0 && keys[i] != key { i = (i + 1) & (keys.count - 1) }
            return i
        }

        private mutating func grow() {
            let oldKeys = keys, oldSlots = slots
            keys = [UInt](repeating: 0, count: oldKeys.count * 2)
            slots = [Int32](repeating: 0, count: oldKeys.count * 2)
            for j in oldKeys.indices where oldKeys[j] != 0 {
                let i = cell(of: oldKeys[j])
                keys[i] = oldKeys[j]
                slots[i] = oldSlots[j]
            }
        }
    }

    /// Sorts `pool[from...]` and drops its repeats in place; returns how many distinct ids remain there.
    static func sortUniqueTail(_ pool: inout FrozenBuffer<Int32>.Builder, from first: Int) -> Int {
        let kept = pool.withTail(from: first) { tail -> Int in
            tail.sort()
            var kept = 0
            for i in tail.indices where kept == 0 || tail[i] != tail[kept - 1] {
                tail[kept] = tail[i]
                kept += 1
            }
            return kept
        }
        pool.truncate(to: first + kept)
        return kept
    }

    // Switches, not dictionary literals: a literal built per predicate made every rebuild of the set
    // (a publication) allocate and hash once per filter.
    static func tagMask(_ type: PropertyType) -> UInt8 {
        switch type {
        case .number: 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
        case .string: 1 << ValueTag.string.rawValue
        case .boolean: 1 << ValueTag.bool.rawValue
        case .date: 1 << ValueTag.date.rawValue
        }
    }

    static func numberCode(_ op: FilterOperator) -> Code {
        switch op {
        case .eq: .numEq
        case .ne: .numNe
        case .gt: .numGt
        case .gte: .numGte
        case .lt: .numLt
        case .lte: .numLte
        default: preconditionFailure("\(op) is not a number comparison")
        }
    }

    static func dateCode(_ op: FilterOperator) -> Code {
        switch op {
        case .before: .dateBefore
        case .after: .dateAfter
        case .lessThanSecondsAgo: .dateLessThanAgo
        case .moreThanSecondsAgo: .dateMoreThanAgo
        case .inLessThanSeconds: .dateInLessThan
        case .inMoreThanSeconds: .dateInMoreThan
        default: preconditionFailure("\(op) is not a date operator")
        }
    }

    static func numberBits(_ v: PropertyValue) -> (UInt8, UInt64) {
        switch v {
        case .int(let i): return (ValueTag.int.rawValue, UInt64(bitPattern: i))
        case .double(let d): return (ValueTag.double.rawValue, d.bitPattern)
        default: preconditionFailure("not a number: \(v)")
        }
    }

    /// A scratch whose regex memo covers every string of `events`.
    public func makeScratch(triggerCount: Int, for events: EventColumns, listCapacity: Int = 0) -> MatchScratch {
        MatchScratch(triggerCount: triggerCount, memoSlots: regexes.count, memoStride: events.symbols.count, listCapacity: listCapacity)
    }

    /// One (trigger, condition) of a bucket with everything its evaluation needs inline, so a
    /// bucket scan reads one contiguous array.
    @usableFromInline struct Entry: Sendable, BitwiseCopyable {
        @usableFromInline var trigger: Int32
        /// -1 any; -2 an action no event can carry; else the push action id.
        @usableFromInline var action: Int32
        @usableFromInline var clauseStart: Int32
        @usableFromInline var clauseEnd: Int32
        /// The trigger's window as one unsigned range test: an event at `time` is inside it exactly when
        /// `UInt64(bitPattern: timeKey(time) &- windowFrom) <= windowSpan` (`timeKey` preserves order).
        @usableFromInline var windowFrom: Int64
        @usableFromInline var windowSpan: UInt64
        /// The condition's required property keys as presence bits, plus the bit of its push action
        /// when it names one: an event whose properties (and action) lack one of them is rejected by one
        /// mask test, before any predicate is looked at. Bits can collide, so a survivor's action is
        /// still compared exactly.
        @usableFromInline var requiredKeys: UInt64
    }

    /// The compiled form of one bucket entry, or nil when it can never match (its action is one no
    /// event carries, or its trigger's window is empty): such entries are left out of the runs.
    func entry(_ e: TriggerBuckets.Entry) -> Entry? {
        let c = conditions[Int(conditionStart[Int(e.trigger)]) + Int(e.condition)]
        let from = windowFrom[Int(e.trigger)], to = windowTo[Int(e.trigger)]
        guard c.action != -2, from <= to else { return nil }
        return Entry(trigger: e.trigger, action: c.action, clauseStart: c.clauseStart, clauseEnd: c.clauseEnd, windowFrom: from,
                     windowSpan: UInt64(bitPattern: to &- from), requiredKeys: c.requiredKeys | (c.action >= 0 ? Self.keyBit(c.action) : 0))
    }

    /// A double's bits as an integer in the same order as the doubles (negative ones have their
    /// magnitude bits flipped; -0 counts as +0). Times and window bounds are never NaN.
    @inlinable @inline(__always)
    static func timeKey(_ d: Double) -> Int64 {
        let b = Int64(bitPattern: (d + 0).bitPattern)  // + 0 turns -0 into +0
        return b ^ ((b &>> 63) & .max)
    }

    /// The compiled entries laid out so that one contiguous run per bucket holds everything an event
    /// of that bucket evaluates: the bucket's own entries, then its companion's (a product's bucket is
    /// followed by a copy of the any-purchase bucket, a campaign's by any-push; see
    /// `TriggerBuckets.companions`). Not `merged`, and each run is the bucket alone, when the copies
    /// would more than double the entries.
    func runs(for buckets: TriggerBuckets) -> Runs {
        let companion = buckets.companions()
        var copies = 0
        for b in 0..<buckets.bucketCount where companion[b] >= 0 { copies += buckets.range(of: companion[b]).count }
        let merged = copies <= buckets.entries.count
        var out = FrozenBuffer<Entry>.Builder(capacity: buckets.entries.count + (merged ? copies : 0))
        var start = FrozenBuffer<Int32>.Builder(capacity: buckets.bucketCount + 1)
        start.append(0)
        for b in 0..<buckets.bucketCount {
            for k in buckets.range(of: Int32(b)) { if let e = entry(buckets.entries[k]) { out.append(e) } }
            if merged, companion[b] >= 0 {
                for k in buckets.range(of: companion[b]) { if let e = entry(buckets.entries[k]) { out.append(e) } }
            }
            start.append(Int32(out.count))
        }
        return Runs(entries: out.freeze(), start: start.freeze(), merged: merged)
    }

    /// Compiled entries in one run per bucket (`runs(for:)`), as `compiled` and `predicate-index` scan them.
    struct Runs: Sendable {
        let entries: FrozenBuffer<Entry>
        /// Bucket `b`'s run is `entries[start[b]..<start[b + 1]]`.
        let start: FrozenBuffer<Int32>
        /// Whether each run holds its companion bucket's entries too; if not, an event with two buckets
        /// scans two runs.
        let merged: Bool

        @inline(__always)
        func range(of bucket: Int32) -> Range<Int> { Int(start[Int(bucket)])..<Int(start[Int(bucket) + 1]) }
    }

    /// Scans one bucket (`range` of `entries`) for event `i` (see `screenAndEvaluate`). `compiled`
    /// scans every bucket so, `predicate-index` its uncrowded ones.
    @inline(__always)
    func scan(_ entries: FrozenBuffer<Entry>, _ range: Range<Int>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let first = range.lowerBound
        tables.screenAndEvaluate(entries.base, count: range.count, i, events, scratch) { first &+ $0 }
    }

    /// Evaluates the entries listed in `scratch.listed[0..<listedCount]` for event `i` (see
    /// `screenAndEvaluate`) and empties the list.
    @inline(__always)
    func scanListed(_ entries: FrozenBuffer<Entry>, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        let listed = scratch.listed
        tables.screenAndEvaluate(entries.base, count: scratch.listedCount, i, events, scratch) { Int(listed[$0]) }
        scratch.listedCount = 0
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
        let inWindow = UInt64(UInt64(bitPattern: timeKey &- entry.windowFrom) <= entry.windowSpan ? 1 : 0)
        let keysPresent = UInt64(entry.requiredKeys & ~presentKeys == 0 ? 1 : 0)
        return inWindow & keysPresent != 0
    }

    /// Every clause of the entry (a conjunction of disjunctions). The event's properties must be
    /// indexed in `scratch`.
    @inlinable @inline(__always)
    func clausesHold(_ entry: PredicateProgram.Entry, event i: Int, in events: EventView, scratch: MatchScratch) -> Bool {
        var clause = Int(entry.clauseStart)
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
        case .regex: return regexMatches(slot: Int(p.aux), string: Int(bits), in: events, scratch: scratch)
        case .notRegex: return !regexMatches(slot: Int(p.aux), string: Int(bits), in: events, scratch: scratch)
        case .boolEq: return bits == p.constBits
        case .boolNe: return bits != p.constBits
        default:
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

    /// The regex in `slot` searched in string `id`, memoised per (slot, string) in the scratch.
    @inlinable
    func regexMatches(slot: Int, string id: Int, in events: EventView, scratch: MatchScratch) -> Bool {
        guard id < scratch.memoStride else { return regexes[slot].search(events.strings[id]) }
        let cell = scratch.memo + (slot * scratch.memoStride + id)
        if cell.pointee == 0 { cell.pointee = regexes[slot].search(events.strings[id]) ? 2 : 1 }
        return cell.pointee == 2
    }
}
