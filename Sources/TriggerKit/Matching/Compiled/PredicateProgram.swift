/// Every trigger condition of a set compiled once into flat, typed predicates: constants typed at
/// load, string constants as interned ids (equality is an integer compare), `in` sets as sorted id
/// arrays, regexes compiled once with results memoised per interned string in the scratch.
/// A class, not a struct: an out-of-line bucket scan is passed a reference, not a copy of the program.
@usableFromInline package final class PredicateProgram: Sendable {
    /// What a compiled predicate does; the type check is part of the opcode.
    @usableFromInline package enum Code: UInt8, Sendable, BitwiseCopyable {
        case exists, notExists
        case numEq, numNe, numGt, numGte, numLt, numLte, numIn, numNotIn
        case strEq, strNe, strIn, strNotIn, regex, notRegex
        case boolEq, boolNe
        case dateBefore, dateAfter, dateLessThanAgo, dateMoreThanAgo, dateInLessThan, dateInMoreThan
        /// A regex searched every time, not memoised: a delta overlay's (its slots change from one
        /// snapshot to the next, while a reader's memo outlives them).
        case regexSearch, notRegexSearch
    }

    @usableFromInline package struct Predicate: Sendable, BitwiseCopyable {
        @usableFromInline var key: Int32
        @usableFromInline package var code: Code
        /// Bit `1 << tag` is set for each `ValueTag` of the filter's type (number: int and double).
        @usableFromInline var tagMask: UInt8
        @usableFromInline var holdsOnMissing: Bool
        @usableFromInline var constTag: UInt8
        @usableFromInline var constBits: UInt64
        /// Start in the set pools (`in`/`not_in`) or the regex slot.
        @usableFromInline var aux: Int32
        /// The set's size (`in`/`not_in`); for a regex, its literal-only form's start in `literals`, or -1.
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

    /// Fixed once a matcher is published; before that, `PredicateIndexMatcher.init` may reorder the
    /// clauses within a condition (`ClauseLayout`), which leaves each condition's meaning alone.
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
    @usableFromInline package let regexes: [CompiledRegex]
    @usableFromInline let regexBuffer: FrozenBuffer<CompiledRegex>
    /// Every literal-only regex (`LiteralPattern.flat`) end to end: a candidate's pattern is one read
    /// from its predicate, not a walk through the regex object and its arrays (a cache miss each at
    /// 10,000 rules and more).
    @usableFromInline let literals: FrozenBuffer<UInt64>
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
        @usableFromInline let literals: UnsafeMutablePointer<UInt64>
    }

    /// `order`: the conditions (condition `k` of trigger `t` is number `conditionStart[t] + k`) in the
    /// order their clauses and predicates are laid out, each once (nil: corpus order). The predicate
    /// index lays them out bucket by bucket, so a scan reads them in sequence, and a crowd's by access
    /// key, so one probe's candidates share lines.
    /// `memoize: false` compiles regexes to be searched every time (see `Code.regexSearch`).
    @usableFromInline package init(_ set: TriggerSet, vocabulary: Vocabulary, order: [Int32]? = nil, memoize: Bool = true) {
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
        var literals = FrozenBuffer<UInt64>.Builder(), literalStart: [Int32] = []
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
                            p.code = memoize ? (f.op == .regex ? .regex : .notRegex) : (f.op == .regex ? .regexSearch : .notRegexSearch)
                            p.aux = regexSlot.slot(of: re, next: Int32(regexes.count))
                            if p.aux == regexes.count {
                                regexes.append(re)
                                literalStart.append(re.literal.map { literal in
                                    defer { for w in literal.flat { literals.append(w) } }
                                    return Int32(literals.count)
                                } ?? -1)
                            }
                            p.auxCount = literalStart[Int(p.aux)]
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
        if let order {
            // Compiled in corpus order (reading the triggers in order is what keeps a build cheap), then
            // the compact predicates are copied into `order`.
            Self.reorder(&predicates, &clauseStart, &conditions, order: order)
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
        self.literals = literals.freeze()
        self.windowFrom = windowFrom
        self.windowTo = windowTo
        tables = Tables(predicates: self.predicates.base, clauseStart: self.clauseStart.base, stringSets: self.stringSets.base,
                        numberSetTags: self.numberSetTags.base, numberSetBits: self.numberSetBits.base, regexes: regexBuffer.base,
                        literals: self.literals.base)
    }

    /// `base` with other predicates and clauses (`stripping`): the set pools, regexes and windows are shared.
    init(_ base: PredicateProgram, predicates: FrozenBuffer<Predicate>, clauseStart: FrozenBuffer<Int32>, conditions: [CompiledCondition]) {
        self.predicates = predicates
        self.clauseStart = clauseStart
        self.conditions = conditions
        conditionStart = base.conditionStart
        stringSets = base.stringSets
        numberSetTags = base.numberSetTags
        numberSetBits = base.numberSetBits
        regexes = base.regexes
        regexBuffer = base.regexBuffer
        literals = base.literals
        windowFrom = base.windowFrom
        windowTo = base.windowTo
        tables = Tables(predicates: predicates.base, clauseStart: clauseStart.base, stringSets: base.tables.stringSets,
                        numberSetTags: base.tables.numberSetTags, numberSetBits: base.tables.numberSetBits,
                        regexes: base.tables.regexes, literals: base.tables.literals)
    }

    /// Lays the clauses and predicates of the conditions out in `order` (see `init`), updating the
    /// conditions' clause ranges; the set pools and regexes they point into stay where they are.
    static func reorder(_ predicates: inout FrozenBuffer<Predicate>.Builder, _ clauseStart: inout FrozenBuffer<Int32>.Builder,
                        _ conditions: inout [CompiledCondition], order: [Int32]) {
        precondition(order.count == conditions.count, "a layout order must name every condition once")
        var newPredicates = FrozenBuffer<Predicate>.Builder(capacity: predicates.count)
        var newClauseStart = FrozenBuffer<Int32>.Builder(capacity: clauseStart.count)
        newClauseStart.append(0)
        for c in order.lazy.map({ Int($0) }) {
            let clauses = Int(conditions[c].clauseStart)..<Int(conditions[c].clauseEnd)
            conditions[c].clauseStart = Int32(newClauseStart.count - 1)
            for clause in clauses {
                for p in Int(clauseStart[clause])..<Int(clauseStart[clause + 1]) { newPredicates.append(predicates[p]) }
                newClauseStart.append(Int32(newPredicates.count))
            }
            conditions[c].clauseEnd = Int32(newClauseStart.count - 1)
        }
        swap(&predicates, &newPredicates)
        swap(&clauseStart, &newClauseStart)
    }

    /// A scratch whose regex memo covers the strings of `events` within `MatchScratch.memoBudget`.
    @usableFromInline package func makeScratch(triggerCount: Int, for events: EventColumns, listCapacity: Int = 0,
                                               markCapacity: Int = 0) -> MatchScratch {
        MatchScratch(triggerCount: triggerCount, memoSlots: regexes.count, memoStride: MatchScratch.memoStride(regexes: regexes.count, for: events),
                     listCapacity: listCapacity, markCapacity: markCapacity)
    }
}
