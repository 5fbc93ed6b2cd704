extension CountingIndex {
    typealias EqualityPairs = [(key: CrowdIndex.EqualityKey, posting: UInt32)]

    /// The threshold lists of a key, in `Keyed` order: number comparisons, then the date operators.
    enum ThresholdList: UInt8, CaseIterable {
        case gt, gte, lt, lte, dateAbove, dateBelow, agoAbove, agoBelow, inAbove, inBelow

        var field: WritableKeyPath<Keyed, PoolRange> {
            switch self {
            case .gt: \.gt
            case .gte: \.gte
            case .lt: \.lt
            case .lte: \.lte
            case .dateAbove: \.dateAbove
            case .dateBelow: \.dateBelow
            case .agoAbove: \.agoAbove
            case .agoBelow: \.agoBelow
            case .inAbove: \.inAbove
            case .inBelow: \.inBelow
            }
        }
    }

    /// What a build files, as flat records; `pools()` sorts each by key and lays the keys out.
    struct Filing {
        var absent: [(key: Int32, posting: UInt32)] = []
        /// `clear` false: marked by a value of the tag; true: cleared by it.
        var tags: [(key: Int32, clear: Bool, tag: UInt8, posting: UInt32)] = []
        var numberNe: [(key: Int32, value: NumberPosting)] = []
        var bitsNe: [(key: Int32, bool: Bool, value: BitsPosting)] = []
        var thresholds: [(key: Int32, list: UInt8, threshold: Double, posting: UInt32)] = []
        var checked: [(key: Int32, clear: Bool, value: CheckedPosting)] = []
        var equality: EqualityPairs = [], clearing: EqualityPairs = []

        /// Files predicate `p` (at position `q` in the program) of a counted clause under everything
        /// that satisfies it.
        mutating func file(_ p: PredicateProgram.Predicate, at q: Int32, _ posting: UInt32, program: PredicateProgram) {
            // As `predicateHolds` decides: a missing property, or a value of another type, gives
            // `holdsOnMissing`; `exists` holds on any value of its type.
            if p.holdsOnMissing { absent.append((p.key, posting)) }
            guard CountingIndex.filedByValue(p) else {
                // Evaluated on any value of the key (`predicateHolds` itself treats one of another type).
                checked.append((p.key, false, CheckedPosting(predicate: q, posting: posting)))
                return
            }
            for t in 0..<CountingIndex.tagCount where p.tagMask & 1 << t != 0 ? p.code == .exists : p.holdsOnMissing {
                tags.append((p.key, false, UInt8(t), posting))
            }
            func equal(_ tag: UInt8, _ bits: UInt64) { equality.append((CrowdIndex.EqualityKey(key: p.key, tag: tag, bits: bits)!, posting)) }
            func threshold(_ list: ThresholdList, _ value: Double) { thresholds.append((p.key, list.rawValue, value, posting)) }
            let constant = Double(bitPattern: p.constBits)
            switch p.code {
            case .numEq: equal(p.constTag, p.constBits)
            case .numIn: for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(program.numberSetTags[s], program.numberSetBits[s]) }
            case .strEq: equal(ValueTag.string.rawValue, p.constBits)
            case .strIn:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(ValueTag.string.rawValue, UInt64(UInt32(bitPattern: program.stringSets[s]))) }
            case .boolEq: equal(ValueTag.bool.rawValue, p.constBits)
            case .numNe: numberNe.append((p.key, NumberPosting(tag: p.constTag, bits: p.constBits, posting: posting)))
            case .strNe: bitsNe.append((p.key, false, BitsPosting(bits: p.constBits, posting: posting)))
            case .boolNe: bitsNe.append((p.key, true, BitsPosting(bits: p.constBits, posting: posting)))
            case .numGt: threshold(.gt, RangeLists.threshold(p)!)
            case .numGte: threshold(.gte, RangeLists.threshold(p)!)
            case .numLt: threshold(.lt, RangeLists.threshold(p)!)
            case .numLte: threshold(.lte, RangeLists.threshold(p)!)
            case .dateAfter: threshold(.dateAbove, constant)
            case .dateBefore: threshold(.dateBelow, constant)
            case .dateMoreThanAgo: threshold(.agoAbove, constant)
            case .dateLessThanAgo: threshold(.agoBelow, constant)
            case .dateInMoreThan: threshold(.inAbove, constant)
            case .dateInLessThan: threshold(.inBelow, constant)
            default: break  // exists, notExists: filed by tag and absence above
            }
        }

        /// Files predicate `p` (at `q`), alone in a clause that starts marked, under the values that
        /// make it fail. It holds on a missing property and on a value of another type, so only a value
        /// of its own type can clear it.
        mutating func fileClearing(_ p: PredicateProgram.Predicate, at q: Int32, _ posting: UInt32, program: PredicateProgram) {
            func equal(_ tag: UInt8, _ bits: UInt64) { clearing.append((CrowdIndex.EqualityKey(key: p.key, tag: tag, bits: bits)!, posting)) }
            let number: UInt8 = 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
            let string: UInt8 = 1 << ValueTag.string.rawValue, bool: UInt8 = 1 << ValueTag.bool.rawValue
            switch p.code {
            case .notExists: for t in 0..<CountingIndex.tagCount where p.tagMask & 1 << t != 0 { tags.append((p.key, true, UInt8(t), posting)) }
            case .numNe where p.tagMask == number: equal(p.constTag, p.constBits)
            case .numNotIn where p.tagMask == number:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(program.numberSetTags[s], program.numberSetBits[s]) }
            case .strNe where p.tagMask == string: equal(ValueTag.string.rawValue, p.constBits)
            case .strNotIn where p.tagMask == string:
                for s in Int(p.aux)..<Int(p.aux + p.auxCount) { equal(ValueTag.string.rawValue, UInt64(UInt32(bitPattern: program.stringSets[s]))) }
            case .boolNe where p.tagMask == bool: equal(ValueTag.bool.rawValue, p.constBits)
            default: checked.append((p.key, true, CheckedPosting(predicate: q, posting: posting)))
            }
        }

        /// The pools and per-key spans of `CountingIndex`.
        struct Pools {
            var keys: [Int32] = [], keyed: [Keyed] = []
            var postings: [UInt32] = [], tagBounds: [Int32] = [], numberNe: [NumberPosting] = [], bitsNe: [BitsPosting] = []
            var thresholds: [Double] = [], rangePostings: [UInt32] = [], checked: [CheckedPosting] = []
            var equality: [(CrowdIndex.EqualityKey, PoolRange)] = [], clearing: [(CrowdIndex.EqualityKey, PoolRange)] = []
        }

        /// Sorts every record list by key (then by what the probe reads in order) and lays each key's
        /// records out as spans of the pools.
        mutating func pools() -> Pools {
            absent.sort { ($0.key, $0.posting) < ($1.key, $1.posting) }
            tags.sort { ($0.key, $0.clear ? 1 : 0, $0.tag, $0.posting) < ($1.key, $1.clear ? 1 : 0, $1.tag, $1.posting) }
            numberNe.sort { ($0.key, $0.value.posting) < ($1.key, $1.value.posting) }
            bitsNe.sort { ($0.key, $0.bool ? 1 : 0, $0.value.posting) < ($1.key, $1.bool ? 1 : 0, $1.value.posting) }
            thresholds.sort { ($0.key, $0.list, $0.threshold, $0.posting) < ($1.key, $1.list, $1.threshold, $1.posting) }
            checked.sort { ($0.key, $0.clear ? 1 : 0, $0.value.posting) < ($1.key, $1.clear ? 1 : 0, $1.value.posting) }
            var keys = Set(absent.map(\.key))
            keys.formUnion(tags.map(\.key))
            keys.formUnion(numberNe.map(\.key))
            keys.formUnion(bitsNe.map(\.key))
            keys.formUnion(thresholds.map(\.key))
            keys.formUnion(checked.map(\.key))
            keys.formUnion(equality.map(\.key.key))
            keys.formUnion(clearing.map(\.key.key))
            var out = Pools()
            var at = (absent: 0, tags: 0, numberNe: 0, bitsNe: 0, thresholds: 0, checked: 0)
            /// Advances `cursor` over the records of `list` while `belongs` holds, appending each; the span appended.
            func take<R, T>(_ list: [R], _ cursor: inout Int, into pool: inout [T], _ belongs: (R) -> Bool, _ value: (R) -> T) -> PoolRange {
                let start = Int32(pool.count)
                while cursor < list.count && belongs(list[cursor]) {
                    pool.append(value(list[cursor]))
                    cursor += 1
                }
                return PoolRange(start: start, end: Int32(pool.count))
            }
            for key in keys.sorted() {
                var k = Keyed()
                k.absent = take(absent, &at.absent, into: &out.postings, { $0.key == key }, \.posting)
                for clear in 0..<2 {  // marking lists, then clearing lists
                    let clear = clear == 1
                    if clear { k.clearTags = Int32(out.tagBounds.count) } else { k.tags = Int32(out.tagBounds.count) }
                    for t in 0..<CountingIndex.tagCount {
                        out.tagBounds.append(Int32(out.postings.count))
                        _ = take(tags, &at.tags, into: &out.postings, { $0.key == key && $0.clear == clear && $0.tag == t }, \.posting)
                    }
                    out.tagBounds.append(Int32(out.postings.count))
                }
                k.numberNe = take(numberNe, &at.numberNe, into: &out.numberNe, { $0.key == key }, \.value)
                k.stringNe = take(bitsNe, &at.bitsNe, into: &out.bitsNe, { $0.key == key && !$0.bool }, \.value)
                k.boolNe = take(bitsNe, &at.bitsNe, into: &out.bitsNe, { $0.key == key && $0.bool }, \.value)
                for list in ThresholdList.allCases {
                    let first = at.thresholds
                    k[keyPath: list.field] = take(thresholds, &at.thresholds, into: &out.rangePostings,
                                                  { $0.key == key && $0.list == list.rawValue }, \.posting)
                    for j in first..<at.thresholds { out.thresholds.append(thresholds[j].threshold) }
                }
                k.checked = take(checked, &at.checked, into: &out.checked, { $0.key == key && !$0.clear }, \.value)
                k.clearChecked = take(checked, &at.checked, into: &out.checked, { $0.key == key && $0.clear }, \.value)
                out.keys.append(key)
                out.keyed.append(k)
            }
            out.equality = CountingIndex.grouped(&equality, into: &out.postings)
            out.clearing = CountingIndex.grouped(&clearing, into: &out.postings)
            return out
        }
    }

    /// The pairs grouped by key: each key's postings appended to `postings` as one span.
    static func grouped(_ pairs: inout EqualityPairs, into postings: inout [UInt32]) -> [(CrowdIndex.EqualityKey, PoolRange)] {
        pairs.sort { ($0.key.key, $0.key.kind, $0.key.bits, $0.posting) < ($1.key.key, $1.key.kind, $1.key.bits, $1.posting) }
        var spans: [(CrowdIndex.EqualityKey, PoolRange)] = []
        var k = 0
        while k < pairs.count {
            let start = Int32(postings.count)
            var end = k
            while end < pairs.count && pairs[end].key == pairs[k].key {
                postings.append(pairs[end].posting)
                end += 1
            }
            spans.append((pairs[k].key, PoolRange(start: start, end: Int32(postings.count))))
            k = end
        }
        return spans
    }
}
