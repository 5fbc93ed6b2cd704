/// The triggers a delta writer has added or replaced since its base was built, compiled as `compiled`
/// compiles a set, in one span per bucket key. Small (a few dozen triggers), so the spans are found by a
/// binary search over their keys behind a 1,024-bit filter that turns most events away with one load.
struct OverlaySpans: Sendable {
    let program: PredicateProgram
    /// Entries whose `trigger` is the scratch slot `slotBase + local index`.
    let entries: FrozenBuffer<PredicateProgram.Entry>
    /// Sorted distinct span keys (`key(kind:id:)`); span `r` is `entries[start[r]..<start[r + 1]]`.
    let keys: FrozenBuffer<UInt64>
    let start: FrozenBuffer<Int32>
    let filter: FrozenBuffer<UInt64>

    /// The span key of a kind and an interned id; id -1 is the kind's "any" bucket (any purchase, any
    /// push click) and session start's only one.
    @inline(__always)
    static func key(kind: UInt8, id: Int32) -> UInt64 { UInt64(kind) << 32 | UInt64(UInt32(bitPattern: id)) }

    /// The kind and the interned id (-1: the kind's "any" bucket) a span key was made of.
    @inline(__always)
    static func kind(of key: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: key >> 32) }
    @inline(__always)
    static func id(of key: UInt64) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: key)) }

    /// The span key of the bucket `condition` is filed under (its strings interned in `symbols`).
    static func key(of condition: Condition, _ symbols: SymbolTable) -> UInt64 {
        switch condition {
        case .customEvent(let name, _): key(kind: EventKindCode.customEvent.rawValue, id: symbols.lookup(name)!)
        case .purchase(let product, _): key(kind: EventKindCode.purchase.rawValue, id: product.map { symbols.lookup($0)! } ?? -1)
        case .pushClick(let campaign, _): key(kind: EventKindCode.pushClick.rawValue, id: campaign.map { symbols.lookup($0)! } ?? -1)
        case .sessionStart: key(kind: EventKindCode.sessionStart.rawValue, id: -1)
        }
    }

    @inline(__always)
    static func filterBit(_ key: UInt64) -> (word: Int, bit: UInt64) {
        let h = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)  // 10 bits
        return (h >> 6, 1 &<< UInt64(h & 63))
    }

    /// Compiles `set` (the overlay's triggers in rank order) against `vocabulary`; entry triggers are
    /// numbered from `slotBase`.
    /// Regexes are searched every time, not memoised (see `PredicateProgram.Code.regexSearch`).
    init(_ set: TriggerSet, vocabulary: Vocabulary, slotBase: Int32) {
        let program = PredicateProgram(set, vocabulary: vocabulary, memoize: false)
        let symbols = vocabulary.symbols
        var keyed: [(key: UInt64, entry: PredicateProgram.Entry)] = []
        for t in set.triggers.indices {
            let conditions = set.triggers[t].conditions
            for c in conditions.indices {
                guard var entry = program.entry(TriggerBuckets.Entry(trigger: Int32(t), condition: Int32(c))) else { continue }
                entry.trigger = slotBase + Int32(t)
                keyed.append((Self.key(of: conditions[c], symbols), entry))
            }
        }
        keyed.sort { $0.key < $1.key }
        var keys: [UInt64] = [], start: [Int32] = []
        var filter = [UInt64](repeating: 0, count: 16)
        for (k, item) in keyed.enumerated() where keys.last != item.key {
            keys.append(item.key)
            start.append(Int32(k))
            let (word, bit) = Self.filterBit(item.key)
            filter[word] |= bit
        }
        start.append(Int32(keyed.count))
        self.program = program
        entries = FrozenBuffer(keyed.map(\.entry))
        self.keys = FrozenBuffer(keys)
        self.start = FrozenBuffer(start)
        self.filter = FrozenBuffer(filter)
    }

    /// What matching reads, as plain pointers (valid while these spans live): a reader copies this into its
    /// snapshot, so matching retains and releases nothing (a retain per event on objects every reader
    /// shares made two readers fight over their reference counts).
    var view: View {
        View(tables: program.tables, entries: entries.base, keys: keys.base, keyCount: keys.count, start: start.base, filter: filter.base)
    }

    struct View: @unchecked Sendable {
        let tables: PredicateProgram.Tables
        let entries: UnsafeMutablePointer<PredicateProgram.Entry>
        let keys: UnsafeMutablePointer<UInt64>
        let keyCount: Int
        let start: UnsafeMutablePointer<Int32>
        let filter: UnsafeMutablePointer<UInt64>

        /// Scans the span of `key` if the filter lets it through.
        @inline(__always)
        static func scan(_ view: UnsafeMutablePointer<View>, _ filter: UnsafeMutablePointer<UInt64>, _ key: UInt64, _ i: Int,
                         _ events: EventView, _ scratch: MatchScratch) {
            let (word, bit) = OverlaySpans.filterBit(key)
            if filter[word] & bit != 0 { view.pointee.search(key, i, events, scratch) }
        }

        /// Out of line: most events are turned away by the filter and need none of this.
        @inline(never)
        func search(_ key: UInt64, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
            var lo = 0, hi = keyCount
            while lo < hi {
                let mid = (lo + hi) >> 1
                if keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            guard lo < keyCount, keys[lo] == key else { return }
            let first = Int(start[lo])
            tables.screenAndEvaluate(entries + first, count: Int(start[lo + 1]) - first, i, events, scratch) { $0 }
        }
    }
}
