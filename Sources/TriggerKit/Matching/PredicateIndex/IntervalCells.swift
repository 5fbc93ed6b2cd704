/// The index of one big bucket of range subscriptions (docs/strategies.md, "Range subscriptions"):
/// conditions whose every clause is one number comparison (`>`, `>=`, `<`, `<=`, `==`), the shape of
/// content-based publish/subscribe, where each subscription is a conjunction of intervals over many
/// numeric attributes. In the family of the bitset matchers (HEM and its successors):
///
/// - each condition's comparisons on one attribute are one closed interval `[lo, hi]` of doubles
///   (a strict bound is moved to the next double, exact for any double value);
/// - each attribute's value domain is cut into cells, equi-depth over the intervals' ends; per cell,
///   a bitset of the conditions whose interval misses the whole cell, and two lists of the ends that
///   lie inside it, sorted: the low ends (a value below one fails) and the high ends (a value above);
/// - an event ORs, per attribute, its value's cell bitset (or, when it lacks the attribute or holds
///   another type, the bitset of every condition constraining it: a comparison on a missing property
///   fails), finds its value in its cell's two end lists by binary search and marks the conditions
///   on the failing side without comparing them, and every condition left unset holds.
///
/// Conditions of the bucket that are not of this form are evaluated as a scanned bucket's are. The
/// compiled program keeps no predicates for the conditions the cells decide (`PredicateProgram.stripping`):
/// an event value no double holds (an integer beyond 2^53) is checked against the trigger's own filters.
/// Everything the probe reads is in manually allocated memory, reached through `raw`.
package struct IntervalCells: Sendable {
    /// Interval ends inside cells, cell after cell, each cell's run sorted by value: cell `g`'s are
    /// `value[start[g]..<start[g + 1]]`, and `condition` holds each end's condition (two arrays, not
    /// one of pairs: a probe reads the values it searches, then only the conditions it marks). The
    /// values are `Float`s when every end of the index is one exactly (`Raw.narrowEnds`), else `Double`s.
    struct Ends: @unchecked Sendable, BitwiseCopyable {
        var start: UnsafeMutablePointer<Int32>
        var value: UnsafeMutableRawPointer
        var condition: UnsafeMutablePointer<Int32>
    }

    /// The probe's view: plain pointers and counts (copying it retains nothing).
    struct Raw: @unchecked Sendable, BitwiseCopyable {
        /// Conditions indexed, and 64-bit words per bitset.
        var conditions: Int
        var words: Int
        var attributes: Int
        /// Per indexed condition, its entry's position in the run.
        var entryOf: UnsafeMutablePointer<Int32>
        /// Per indexed condition, its number among its trigger's conditions (for `holdsExactly`).
        var conditionOf: UnsafeMutablePointer<Int32>
        /// Per indexed condition, its trigger when its entry admits every event (no window, any push
        /// action), else -1: a match is then added without reading the entry (a cache miss per match).
        var triggerOf: UnsafeMutablePointer<Int32>
        /// Per property key id below `keyLimit`, its attribute (or -1).
        var attributeOfKey: UnsafeMutablePointer<Int32>
        var keyLimit: Int
        /// Attribute `a`'s splits are `splits[splitStart[a]..<splitStart[a + 1]]`; its cells, one more,
        /// are numbered from `splitStart[a] + a` (cell `j` holds values in `[split j-1, split j)`).
        var splitStart: UnsafeMutablePointer<Int32>
        var splits: UnsafeMutablePointer<Double>
        /// Cell `g`'s bitset of conditions that fail anywhere in it: `failBits[g * words..<(g + 1) * words]`.
        var failBits: UnsafeMutablePointer<UInt64>
        /// Attribute `a`'s conditions (they fail when the event lacks it): `absentBits[a * words...]`.
        var absentBits: UnsafeMutablePointer<UInt64>
        /// Low ends above their cell's lower edge (a value below fails), and high ends (a value above fails).
        var lows: Ends
        var highs: Ends
        /// Whether the ends' values are `Float`s: 8 bytes an end instead of 12 (bounds that are integers
        /// below 2^24, or halves and quarters of smaller ones, as publish/subscribe workloads draw them).
        var narrowEnds: Bool
        /// Entries of the bucket (positions in the run) that are not indexed: evaluated in full.
        var residual: UnsafeMutablePointer<Int32>
        var residualCount: Int
    }

    let raw: Raw
    /// How many of the bucket's conditions are not indexed (`Raw.residual`).
    package var residualCount: Int { raw.residualCount }
    /// Whether the end lists hold `Float`s (`Raw.narrowEnds`).
    package var narrowEnds: Bool { raw.narrowEnds }
    /// Owners of `raw`'s memory.
    let owners: [any AnyObject & Sendable]
    /// Each attribute's property key, and every spelling of its name the indexed conditions' filters
    /// are written in, byte for byte (usually one): `holdsExactly` finds a filter's attribute by its
    /// bytes, where a comparison under canonical equivalence allocated for a name not in NFC.
    let attributeKeys: [Int32]
    let attributeSpellings: [[String]]

    /// The cell after every attribute's, with no fails and no ends: a probe puts an attribute it
    /// skips (a value no double holds) there, so the hot loops need no test for it.
    var skippedCell: UInt64 { UInt64(raw.splitStart[raw.attributes]) + UInt64(raw.attributes) }

    /// Scratch words a probe uses: the bitset, then per attribute its cell (or `.max`) and value, then
    /// per attribute two end searches' positions and widths (`searchEnds`).
    var scratchWords: Int { raw.words + 6 * raw.attributes }

    /// Bytes the index holds (bitsets, end lists, splits, maps).
    var bytes: Int {
        let cells = Int(raw.splitStart[raw.attributes]) + raw.attributes
        return (cells + raw.attributes + 1) * raw.words * 8 + Int(raw.lows.start[cells] + raw.highs.start[cells]) * (raw.narrowEnds ? 8 : 12)
            + cells * 16 + raw.conditions * 12 + raw.keyLimit * 4
    }

    /// Cell bitsets a build may spend per indexed condition, summed over all attributes, in bits: the
    /// cells of all attributes together are at most this many. More cells mean fewer ends
    /// to search and mark per event and more memory (one bit per condition per cell).
    static let cellBitsPerCondition = 2048

    /// The closed interval of `p`, or nil when `p` is not a number comparison this index decides
    /// exactly (another operator, a type mask other than number's, a constant no double holds).
    static func interval(_ p: PredicateProgram.Predicate) -> (lo: Double, hi: Double)? {
        let number: UInt8 = 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
        guard p.tagMask == number, !p.holdsOnMissing else { return nil }
        switch p.code {
        case .numGt, .numGte, .numLt, .numLte, .numEq: break
        default: return nil
        }
        guard let c = RangeLists.threshold(p), c.isFinite else { return nil }
        switch p.code {
        case .numGt: return (c.nextUp, .infinity)
        case .numGte: return (c, .infinity)
        case .numLt: return (-.infinity, c.nextDown)
        case .numLte: return (-.infinity, c)
        default: return (c, c)
        }
    }

    /// The intervals of `entry`'s conjunction, one per attribute, into `out` (reused: a bucket of
    /// 100,000 conditions made a million small arrays); false when it is not a conjunction of intervals.
    static func intervals(of entry: PredicateProgram.Entry, program: PredicateProgram,
                          into out: inout [(key: Int32, lo: Double, hi: Double)]) -> Bool {
        out.removeAll(keepingCapacity: true)
        guard entry.clauseEnd > entry.clauseStart else { return false }
        for c in Int(entry.clauseStart)..<Int(entry.clauseEnd) {
            let first = Int(program.clauseStart[c])
            guard program.clauseStart[c + 1] == first + 1 else { return false }
            let p = program.predicates[first]
            guard let (lo, hi) = interval(p) else { return false }
            if let k = out.firstIndex(where: { $0.key == p.key }) {
                out[k].lo = max(out[k].lo, lo)
                out[k].hi = min(out[k].hi, hi)
            } else {
                out.append((p.key, lo, hi))
            }
        }
        return true
    }

    /// Whether a bucket is worth indexing this way: at least three quarters of its conditions are
    /// interval conjunctions without an equality. A condition that requires an equal value is what
    /// the crowd index's hash table answers best: on `crowded-100k` (an equality and a price bound
    /// per trigger) cells evaluated 4,453 candidates per event where the crowd evaluates 6.8.
    static func pays(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram) -> Bool {
        var ranged = 0
        var list: [(key: Int32, lo: Double, hi: Double)] = []
        for e in entries {
            guard intervals(of: run[e], program: program, into: &list), !list.contains(where: { $0.lo == $0.hi }) else { continue }
            ranged += 1
        }
        return ranged > 0 && 4 * ranged >= 3 * entries.count
    }
}
