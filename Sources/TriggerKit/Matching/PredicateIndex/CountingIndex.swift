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
    typealias PoolRange = CrowdIndex.PoolRange

    /// Where one property key's postings are, in the pools below.
    struct Keyed: Sendable, BitwiseCopyable {
        /// Predicates that hold on a missing property: marked when the event lacks the key.
        var absent = PoolRange(start: 0, end: 0)
        /// Marked by any value of tag `t`: `postings[tagBounds[tags + t]..<tagBounds[tags + t + 1]]`
        /// (`exists`, and the predicates that hold on a value of another type).
        var tags: Int32 = 0
        /// `!=` on numbers (in `numberNe`): marked unless the value compares equal.
        var numberNe = PoolRange(start: 0, end: 0)
        /// `!=` on strings (interned ids) and booleans (in `bitsNe`): marked unless the bits are equal.
        var stringNe = PoolRange(start: 0, end: 0), boolNe = PoolRange(start: 0, end: 0)
        /// `>`, `>=`, `<`, `<=` in `thresholds`/`rangePostings`, each sorted by threshold.
        var gt = PoolRange(start: 0, end: 0), gte = PoolRange(start: 0, end: 0), lt = PoolRange(start: 0, end: 0), lte = PoolRange(start: 0, end: 0)
        /// Date predicates as thresholds: `before`/`after` on the date, `less/more_than_seconds_ago` on
        /// how long before the event it is, `in_less/more_than_seconds` on how long after. Each pair is
        /// (holds above the threshold: `after`, `more_than`; holds below it: `before`, `less_than`).
        var dateAbove = PoolRange(start: 0, end: 0), dateBelow = PoolRange(start: 0, end: 0)
        var agoAbove = PoolRange(start: 0, end: 0), agoBelow = PoolRange(start: 0, end: 0)
        var inAbove = PoolRange(start: 0, end: 0), inBelow = PoolRange(start: 0, end: 0)
        /// Predicates evaluated one by one when the event carries the key (in `checked`).
        var checked = PoolRange(start: 0, end: 0)
        /// Clauses that start marked: cleared by any value of tag `t` (as `tags`, for `not_exists`), and
        /// cleared when a predicate evaluated one by one (in `checked`) fails.
        var clearTags: Int32 = 0
        var clearChecked = PoolRange(start: 0, end: 0)
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

    /// Each key's position in `keyed`.
    let keyIndex: FlatTable<Int32>
    let keyed: FrozenBuffer<Keyed>
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
    let equality: FlatTable<PoolRange>
    /// Clauses that start marked, cleared by an equal value (`!=`, `not_in`), as spans of `postings`.
    let clearing: FlatTable<PoolRange>
    /// Per condition, its mark word's low half at the start of an event: the bits of the clauses it
    /// lacks and of those that start marked. It matches once the word is all ones.
    let initial: FrozenBuffer<UInt32>
    /// Conditions whose clauses all start marked: they match unless a value clears one.
    let markedAtStart: FrozenBuffer<Int32>
    /// Conditions without clauses (they hold wherever their screen passes) and conditions evaluated in
    /// full, as positions in the run.
    let always: FrozenBuffer<Int32>
    /// The triggers of clause-less conditions without a time window or push action: they match every
    /// event of the bucket, and are added without reading their entries (a session start of
    /// `huge-100k` matches ~3,400 of them).
    let everywhere: FrozenBuffer<Int32>
    let residual: FrozenBuffer<Int32>
    /// Everything above as the probe reads it.
    let raw: Raw

    /// The probe's view: plain pointers and counts (copying it retains nothing), owned by the index's buffers.
    struct Raw: @unchecked Sendable, BitwiseCopyable {
        let keyIndex: FlatTable<Int32>.View
        let keyed: UnsafeMutablePointer<Keyed>
        /// `PredicateProgram.keyBit` of the keys in `keyIndex`: most absent keys skip the lookup.
        let keyBits: UInt64
        let absentKeys: UnsafeMutablePointer<(key: Int32, keyed: Int32)>
        let absentKeyCount: Int
        let postings: UnsafeMutablePointer<UInt32>
        let tagBounds: UnsafeMutablePointer<Int32>
        let numberNe: UnsafeMutablePointer<NumberPosting>
        let bitsNe: UnsafeMutablePointer<BitsPosting>
        let thresholds: UnsafeMutablePointer<Double>
        let rangePostings: UnsafeMutablePointer<UInt32>
        let checked: UnsafeMutablePointer<CheckedPosting>
        let equality: FlatTable<PoolRange>.View
        let clearing: FlatTable<PoolRange>.View
        let initial: UnsafeMutablePointer<UInt32>
        let conditions: Int
        let markedAtStart: UnsafeMutablePointer<Int32>
        let markedAtStartCount: Int
        let always: UnsafeMutablePointer<Int32>
        let alwaysCount: Int
        let everywhere: UnsafeMutablePointer<Int32>
        let everywhereCount: Int
        let residual: UnsafeMutablePointer<Int32>
        let residualCount: Int
    }

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
    static func pays(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>) -> Bool {
        var counted = 0
        for e in entries where countable(run[e]) { counted += 1 }
        return 2 * counted >= entries.count
    }

    /// The index of `run[entries]`; a condition's number is its offset in the range.
    init(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) {
        // Filed as flat records, then sorted by key once (arrays per key and per value made a build
        // of huge-100k allocate 171,000 times).
        var filing = Filing()
        var initial = [UInt32](repeating: ~0, count: entries.count)
        var always: [Int32] = [], residual: [Int32] = [], markedAtStart: [Int32] = [], everywhere: [Int32] = []
        for e in entries {
            let local = e - entries.lowerBound
            let entry = run[e]
            let clauses = Int(entry.clauseStart)..<Int(entry.clauseEnd)
            if clauses.isEmpty {
                if entry.admitsEveryEvent {
                    everywhere.append(entry.trigger)
                } else {
                    always.append(Int32(e))
                }
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
                    filing.fileClearing(program.predicates[first], at: Int32(first), posting, program: program)
                    continue
                }
                for q in first..<end { filing.file(program.predicates[q], at: Int32(q), posting, program: program) }
            }
            if initial[local] == .max { markedAtStart.append(Int32(local)) }
        }
        let pools = filing.pools()
        keyIndex = FlatTable(positionsOf: pools.keys)
        keyed = FrozenBuffer(pools.keyed)
        absentKeys = FrozenBuffer(pools.keyed.indices.filter { pools.keyed[$0].absent.end > pools.keyed[$0].absent.start }
            .map { (pools.keys[$0], Int32($0)) })
        postings = FrozenBuffer(pools.postings)
        tagBounds = FrozenBuffer(pools.tagBounds)
        numberNe = FrozenBuffer(pools.numberNe)
        bitsNe = FrozenBuffer(pools.bitsNe)
        thresholds = FrozenBuffer(pools.thresholds)
        rangePostings = FrozenBuffer(pools.rangePostings)
        checked = FrozenBuffer(pools.checked)
        equality = FlatTable(pools.equality, filler: PoolRange(start: 0, end: 0))
        clearing = FlatTable(pools.clearing, filler: PoolRange(start: 0, end: 0))
        self.initial = FrozenBuffer(initial)
        self.always = FrozenBuffer(always)
        self.everywhere = FrozenBuffer(everywhere)
        self.residual = FrozenBuffer(residual)
        self.markedAtStart = FrozenBuffer(markedAtStart)
        raw = Raw(keyIndex: keyIndex.view, keyed: keyed.base, keyBits: pools.keys.reduce(0) { $0 | PredicateProgram.keyBit($1) },
                  absentKeys: absentKeys.base, absentKeyCount: absentKeys.count, postings: postings.base, tagBounds: tagBounds.base,
                  numberNe: numberNe.base, bitsNe: bitsNe.base, thresholds: thresholds.base, rangePostings: rangePostings.base,
                  checked: checked.base, equality: equality.view, clearing: clearing.view, initial: self.initial.base,
                  conditions: self.initial.count, markedAtStart: self.markedAtStart.base, markedAtStartCount: self.markedAtStart.count,
                  always: self.always.base, alwaysCount: self.always.count, everywhere: self.everywhere.base,
                  everywhereCount: self.everywhere.count, residual: self.residual.base, residualCount: self.residual.count)
    }
}
