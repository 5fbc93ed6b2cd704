/// The index of one big bucket whose conditions share no access key (docs/strategies.md, "Counting"):
/// each clause's predicates are filed by property key under what satisfies them (a value of some
/// tag, an equal value, a threshold, a different value, the key's absence), and an event marks,
/// condition by condition, the clauses its properties satisfy. A condition whose every clause is
/// marked matches without evaluating a predicate. A predicate the postings cannot decide by value
/// (regexes, `not_in`, predicates on an unusual type) is filed under its key to be evaluated when the event carries the key;
/// conditions of over 32 clauses are evaluated in full, as a scanned bucket's are.
///
/// A clause of one predicate that holds on a missing property (`!=`, `not_in`, `not_exists`,
/// `not_regex`) starts marked instead, and the event's value of its key clears it when the predicate
/// fails (an equal value, found by hash; any value for `not_exists`): most events lack most keys, and
/// marking each such clause for every absent key was most of the work.
///
/// A posting is `condition << 5 | clause`: the condition numbered within the bucket's run, the clause
/// within the condition. Marks are idempotent (a clause with two satisfied predicates is marked
/// twice), so a list may repeat a posting. Everything the probe reads is a plain value in manually
/// allocated pools: nothing is reference counted per event.
struct CountingIndex: Sendable {
    typealias Span = CrowdIndex.PoolRange

    /// Where one property key's postings are, in the pools below.
    struct Keyed: Sendable, BitwiseCopyable {
        /// Predicates that hold on a missing property: marked when the event lacks the key.
        var absent = Span(start: 0, end: 0)
        /// Marked by any value of tag `t`: `postings[tagBounds[tags + t]..<tagBounds[tags + t + 1]]`
        /// (`exists`, and the predicates that hold on a value of another type).
        var tags: Int32 = 0
        /// `!=` on numbers (in `numberNe`): marked unless the value compares equal.
        var numberNe = Span(start: 0, end: 0)
        /// `!=` on strings (interned ids) and booleans (in `bitsNe`): marked unless the bits are equal.
        var stringNe = Span(start: 0, end: 0), boolNe = Span(start: 0, end: 0)
        /// `>`, `>=`, `<`, `<=` in `thresholds`/`rangePostings`, each sorted by threshold.
        var gt = Span(start: 0, end: 0), gte = Span(start: 0, end: 0), lt = Span(start: 0, end: 0), lte = Span(start: 0, end: 0)
        /// Date predicates as thresholds: `before`/`after` on the date, `less/more_than_seconds_ago` on
        /// how long before the event it is, `in_less/more_than_seconds` on how long after. Each pair is
        /// (holds above the threshold: `after`, `more_than`; holds below it: `before`, `less_than`).
        var dateAbove = Span(start: 0, end: 0), dateBelow = Span(start: 0, end: 0)
        var agoAbove = Span(start: 0, end: 0), agoBelow = Span(start: 0, end: 0)
        var inAbove = Span(start: 0, end: 0), inBelow = Span(start: 0, end: 0)
        /// Predicates evaluated one by one when the event carries the key (in `checked`).
        var checked = Span(start: 0, end: 0)
        /// Clauses that start marked: cleared by any value of tag `t` (as `tags`, for `not_exists`), and
        /// cleared when a predicate evaluated one by one (in `checked`) fails.
        var clearTags: Int32 = 0
        var clearChecked = Span(start: 0, end: 0)
    }

    /// A predicate (its position in the program) and the clause it marks when it holds.
    struct CheckedPosting: Sendable, BitwiseCopyable {
        var predicate: Int32
        var posting: UInt32
    }

    struct NumberPosting: Sendable, BitwiseCopyable {
        var tag: UInt8
        var bits: UInt64
        var posting: UInt32
    }

    struct BitsPosting: Sendable, BitwiseCopyable {
        var bits: UInt64
        var posting: UInt32
    }

    /// Tags are `ValueTag` raw values, all below this.
    static let tagCount = 8
    static let maxClauses = 32

    let keyIndex: [Int32: Int32]
    let keyed: FrozenBuffer<Keyed>
    /// `PredicateProgram.keyBit` of the keys in `keyIndex`: most absent keys skip the lookup.
    let keyedBits: UInt64
    /// Keys with `absent` postings, and their `keyed` positions.
    let absentKeys: FrozenBuffer<(key: Int32, keyed: Int32)>
    let postings: FrozenBuffer<UInt32>
    let tagBounds: FrozenBuffer<Int32>
    let numberNe: FrozenBuffer<NumberPosting>
    let bitsNe: FrozenBuffer<BitsPosting>
    let thresholds: FrozenBuffer<Double>
    let rangePostings: FrozenBuffer<UInt32>
    let checked: FrozenBuffer<CheckedPosting>
    /// `==` and `in` postings by key and canonical value, as spans of `postings`.
    let equality: [CrowdIndex.EqualityKey: Span]
    /// Clauses that start marked, cleared by an equal value (`!=`, `not_in`), as spans of `postings`.
    let clearing: [CrowdIndex.EqualityKey: Span]
    /// Per condition, its mark word's low half at the start of an event: the bits of the clauses it
    /// lacks and of those that start marked. It matches once the word is all ones.
    let initial: FrozenBuffer<UInt32>
    /// Conditions whose clauses all start marked: they match unless a value clears one.
    let markedAtStart: [Int32]
    /// Conditions without clauses (they hold wherever their screen passes) and conditions evaluated in
    /// full, as positions in the run.
    let always: [Int32]
    let residual: [Int32]

    /// Whether the postings decide `p` by value: its code is one they file, its type mask is its code's
    /// own, and a range's threshold is an exact double. Others are `checked`.
    static func filedByValue(_ p: PredicateProgram.Predicate) -> Bool {
        let number: UInt8 = 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
        switch p.code {
        case .exists, .notExists: return true
        case .numEq, .numNe, .numIn: return p.tagMask == number
        case .numGt, .numGte, .numLt, .numLte: return p.tagMask == number && RangeLists.threshold(p) != nil
        case .strEq, .strNe, .strIn: return p.tagMask == 1 << ValueTag.string.rawValue
        case .boolEq, .boolNe: return p.tagMask == 1 << ValueTag.bool.rawValue
        case .dateBefore, .dateAfter, .dateLessThanAgo, .dateMoreThanAgo, .dateInLessThan, .dateInMoreThan:
            return p.tagMask == 1 << ValueTag.date.rawValue
        default: return false
        }
    }

    static func countable(_ entry: PredicateProgram.Entry) -> Bool { entry.clauseEnd - entry.clauseStart <= maxClauses }

    /// Whether most of a bucket's conditions are countable: below half, marking costs more than it spares.
    static func worthCounting(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>) -> Bool {
        var counted = 0
        for e in entries where countable(run[e]) { counted += 1 }
        return 2 * counted >= entries.count
    }

    /// The index of `run[entries]`; a condition's number is its offset in the range.
    init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
        var lists: [Int32: Lists] = [:]
        var eq: [CrowdIndex.EqualityKey: [UInt32]] = [:]
        var clear: [CrowdIndex.EqualityKey: [UInt32]] = [:]
        var initial = [UInt32](repeating: ~0, count: entries.count)
        var always: [Int32] = [], residual: [Int32] = [], markedAtStart: [Int32] = []
        for e in entries {
            let local = e - entries.lowerBound
            let entry = run[e]
            let clauses = Int(entry.clauseStart)..<Int(entry.clauseEnd)
            if clauses.isEmpty {
                always.append(Int32(e))
                continue
            }
            guard Self.countable(entry) else {
                residual.append(Int32(e))
                continue
            }
            initial[local] = ~0 << UInt32(clauses.count)  // 0 for 32 clauses (a smart shift)
            for (bit, c) in clauses.enumerated() {
                let posting = UInt32(local) << 5 | UInt32(bit)
                let first = Int(program.clauseStart[c]), end = Int(program.clauseStart[c + 1])
                if end - first == 1, program.predicates[first].holdsOnMissing {
                    initial[local] |= 1 << UInt32(bit)
                    let p = program.predicates[first]
                    lists[p.key, default: Lists()].fileClearing(p, at: Int32(first), posting, program: program, clearing: &clear)
                    continue
                }
                for q in first..<end {
                    let p = program.predicates[q]
                    lists[p.key, default: Lists()].file(p, at: Int32(q), posting, program: program, equality: &eq)
                }
            }
            if initial[local] == .max { markedAtStart.append(Int32(local)) }
        }
        // Flattened into the pools.
        var postings: [UInt32] = [], tagBounds: [Int32] = [], numberNe: [NumberPosting] = [], bitsNe: [BitsPosting] = []
        var thresholds: [Double] = [], rangePostings: [UInt32] = [], checked: [CheckedPosting] = []
        func span<T>(_ list: [T], into pool: inout [T]) -> Span {
            defer { pool += list }
            return Span(start: Int32(pool.count), end: Int32(pool.count + list.count))
        }
        func sortedSpan(_ list: [(Double, UInt32)]) -> Span {
            let sorted = list.sorted { $0.0 < $1.0 }
            thresholds += sorted.map(\.0)
            return span(sorted.map(\.1), into: &rangePostings)
        }
        var keyIndex: [Int32: Int32] = [:], keyed: [Keyed] = [], absentKeys: [(key: Int32, keyed: Int32)] = []
        var keyedBits: UInt64 = 0
        for key in lists.keys.sorted() {
            let l = lists[key]!
            var k = Keyed()
            k.absent = span(l.absent, into: &postings)
            k.tags = Int32(tagBounds.count)
            for t in 0..<Self.tagCount {
                tagBounds.append(Int32(postings.count))
                postings += l.byTag[t]
            }
            tagBounds.append(Int32(postings.count))
            k.numberNe = span(l.numberNe, into: &numberNe)
            k.stringNe = span(l.stringNe, into: &bitsNe)
            k.boolNe = span(l.boolNe, into: &bitsNe)
            (k.gt, k.gte, k.lt, k.lte) = (sortedSpan(l.gt), sortedSpan(l.gte), sortedSpan(l.lt), sortedSpan(l.lte))
            (k.dateAbove, k.dateBelow) = (sortedSpan(l.dateAbove), sortedSpan(l.dateBelow))
            (k.agoAbove, k.agoBelow) = (sortedSpan(l.agoAbove), sortedSpan(l.agoBelow))
            (k.inAbove, k.inBelow) = (sortedSpan(l.inAbove), sortedSpan(l.inBelow))
            k.checked = span(l.checked, into: &checked)
            k.clearChecked = span(l.clearChecked, into: &checked)
            k.clearTags = Int32(tagBounds.count)
            for t in 0..<Self.tagCount {
                tagBounds.append(Int32(postings.count))
                postings += l.clearByTag[t]
            }
            tagBounds.append(Int32(postings.count))
            keyIndex[key] = Int32(keyed.count)
            if !l.absent.isEmpty { absentKeys.append((key, Int32(keyed.count))) }
            keyed.append(k)
            keyedBits |= PredicateProgram.keyBit(key)
        }
        var equality: [CrowdIndex.EqualityKey: Span] = [:]
        for (k, list) in eq { equality[k] = span(list, into: &postings) }
        var clearing: [CrowdIndex.EqualityKey: Span] = [:]
        for (k, list) in clear { clearing[k] = span(list, into: &postings) }
        self.clearing = clearing
        self.markedAtStart = markedAtStart
        self.keyIndex = keyIndex
        self.keyed = FrozenBuffer(keyed)
        self.keyedBits = keyedBits
        self.absentKeys = FrozenBuffer(absentKeys)
        self.postings = FrozenBuffer(postings)
        self.tagBounds = FrozenBuffer(tagBounds)
        self.numberNe = FrozenBuffer(numberNe)
        self.bitsNe = FrozenBuffer(bitsNe)
        self.thresholds = FrozenBuffer(thresholds)
        self.rangePostings = FrozenBuffer(rangePostings)
        self.checked = FrozenBuffer(checked)
        self.equality = equality
        self.initial = FrozenBuffer(initial)
        self.always = always
        self.residual = residual
    }

    /// One key's postings while building.
    struct Lists {
        var absent: [UInt32] = []
        var byTag = [[UInt32]](repeating: [], count: CountingIndex.tagCount)
        var numberNe: [NumberPosting] = []
        var stringNe: [BitsPosting] = [], boolNe: [BitsPosting] = []
        var gt: [(Double, UInt32)] = [], gte: [(Double, UInt32)] = [], lt: [(Double, UInt32)] = [], lte: [(Double, UInt32)] = []
        var dateAbove: [(Double, UInt32)] = [], dateBelow: [(Double, UInt32)] = [], agoAbove: [(Double, UInt32)] = []
        var agoBelow: [(Double, UInt32)] = [], inAbove: [(Double, UInt32)] = [], inBelow: [(Double, UInt32)] = []
        var checked: [CheckedPosting] = []
        var clearByTag = [[UInt32]](repeating: [], count: CountingIndex.tagCount)
        var clearChecked: [CheckedPosting] = []

        /// Files predicate `p` (at `q`), alone in a clause that starts marked, under the values that
        /// make it fail. It holds on a missing property and on a value of another type, so only a value
        /// of its own type can clear it.
        mutating func fileClearing(_ p: PredicateProgram.Predicate, at q: Int32, _ posting: UInt32, program: PredicateProgram,
                                   clearing: inout [CrowdIndex.EqualityKey: [UInt32]]) {
            func equal(_ tag: UInt8, _ bits: UInt64) {
                clearing[CrowdIndex.EqualityKey(key: p.key, tag: tag, bits: bits)!, default: []].append(posting)
            }
            let number: UInt8 = 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
            let string: UInt8 = 1 << ValueTag.string.rawValue, bool: UInt8 = 1 << ValueTag.bool.rawValue
            switch p.code {
            case .notExists: for t in 0..<CountingIndex.tagCount where p.tagMask & 1 << t != 0 { clearByTag[t].append(posting) }
            case .numNe where p.tagMask == number: equal(p.constTag, p.constBits)
            case .numNotIn where p.tagMask == number:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(program.numberSetTags[s], program.numberSetBits[s]) }
            case .strNe where p.tagMask == string: equal(ValueTag.string.rawValue, p.constBits)
            case .strNotIn where p.tagMask == string:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(ValueTag.string.rawValue, UInt64(UInt32(bitPattern: program.stringSets[s]))) }
            case .boolNe where p.tagMask == bool: equal(ValueTag.bool.rawValue, p.constBits)
            default: clearChecked.append(CheckedPosting(predicate: q, posting: posting))
            }
        }

        /// Files predicate `p` (at position `q` in the program) of a counted clause under everything
        /// that satisfies it.
        mutating func file(_ p: PredicateProgram.Predicate, at q: Int32, _ posting: UInt32, program: PredicateProgram,
                           equality eq: inout [CrowdIndex.EqualityKey: [UInt32]]) {
            // As `predicateHolds` decides: a missing property, or a value of another type, gives
            // `holdsOnMissing`; `exists` holds on any value of its type.
            if p.holdsOnMissing { absent.append(posting) }
            guard CountingIndex.filedByValue(p) else {
                // Evaluated on any value of the key (`predicateHolds` itself treats one of another type).
                checked.append(CheckedPosting(predicate: q, posting: posting))
                return
            }
            for t in 0..<CountingIndex.tagCount where p.tagMask & 1 << t != 0 ? p.code == .exists : p.holdsOnMissing {
                byTag[t].append(posting)
            }
            func equal(_ tag: UInt8, _ bits: UInt64) {
                eq[CrowdIndex.EqualityKey(key: p.key, tag: tag, bits: bits)!, default: []].append(posting)
            }
            switch p.code {
            case .numEq: equal(p.constTag, p.constBits)
            case .numIn: for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(program.numberSetTags[s], program.numberSetBits[s]) }
            case .strEq: equal(ValueTag.string.rawValue, p.constBits)
            case .strIn:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(ValueTag.string.rawValue, UInt64(UInt32(bitPattern: program.stringSets[s]))) }
            case .boolEq: equal(ValueTag.bool.rawValue, p.constBits)
            case .numNe: numberNe.append(NumberPosting(tag: p.constTag, bits: p.constBits, posting: posting))
            case .strNe: stringNe.append(BitsPosting(bits: p.constBits, posting: posting))
            case .boolNe: boolNe.append(BitsPosting(bits: p.constBits, posting: posting))
            case .numGt: gt.append((RangeLists.threshold(p)!, posting))
            case .numGte: gte.append((RangeLists.threshold(p)!, posting))
            case .numLt: lt.append((RangeLists.threshold(p)!, posting))
            case .numLte: lte.append((RangeLists.threshold(p)!, posting))
            case .dateAfter: dateAbove.append((Double(bitPattern: p.constBits), posting))
            case .dateBefore: dateBelow.append((Double(bitPattern: p.constBits), posting))
            case .dateMoreThanAgo: agoAbove.append((Double(bitPattern: p.constBits), posting))
            case .dateLessThanAgo: agoBelow.append((Double(bitPattern: p.constBits), posting))
            case .dateInMoreThan: inAbove.append((Double(bitPattern: p.constBits), posting))
            case .dateInLessThan: inBelow.append((Double(bitPattern: p.constBits), posting))
            default: break  // exists, notExists: filed by tag and absence above
            }
        }
    }
}
