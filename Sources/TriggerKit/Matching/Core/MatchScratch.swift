/// Caller-owned, per-thread working memory of a matcher: the result buffer, de-duplication stamps
/// per trigger, and memoised regex results per interned string.
public final class MatchScratch {
    /// Matched trigger indices of the last event: `results[0..<count]`.
    @usableFromInline let results: UnsafeMutablePointer<Int32>
    @usableFromInline @exclusivity(unchecked) var resultCount = 0
    /// Conditions evaluated so far (after index pruning), summed over events.
    @exclusivity(unchecked) public package(set) var candidates = 0
    @usableFromInline let stamps: UnsafeMutablePointer<UInt32>
    @usableFromInline @exclusivity(unchecked) var stamp: UInt32 = 0
    /// How many trigger indices (de-duplication stamps) the scratch has room for.
    public let triggerCount: Int
    /// `memo[slot * memoStride + stringID]`: 0 unknown, 1 no match, 2 match.
    @usableFromInline let memo: UnsafeMutablePointer<UInt8>
    @usableFromInline let memoStride: Int
    package let memoSlots: Int
    /// Per event, where each property key sits in the property columns: `slots[key]` is valid
    /// when `slotStamps[key] == stamp` (no clearing between events). Sized to `memoStride` keys.
    @usableFromInline let slots: UnsafeMutablePointer<Int32>
    @usableFromInline let slotStamps: UnsafeMutablePointer<UInt32>

    /// Entry numbers a matcher collects before evaluating them together (`predicate-index`: the
    /// candidates its index returns for a crowded bucket): `listed[0..<listedCount]`, room for `listCapacity`.
    /// A crowd's entry may carry `ProvenClause.flag` (its first clause proven).
    @usableFromInline let listed: UnsafeMutablePointer<Int32>
    @usableFromInline let listCapacity: Int
    @usableFromInline @exclusivity(unchecked) var listedCount = 0

    /// Per condition of a counted bucket (`predicate-index`), the clauses the event satisfies: the high
    /// half is the `markStamp` the word belongs to, so no clearing between buckets. Room for `markCapacity`.
    @usableFromInline let marks: UnsafeMutablePointer<UInt64>
    @usableFromInline let markCapacity: Int
    @usableFromInline @exclusivity(unchecked) var markStamp: UInt32 = 0

    /// Mark words for buckets that mark up to `marked` conditions (counted buckets and literal crowds,
    /// from the bottom) and a cells probe's `cellArea` words (at the top): the two never overlap.
    package static func markWords(marked: Int, cellArea: Int) -> Int { marked + cellArea }

    /// The top `words` mark words, where a cells probe keeps its bitset and per-attribute cells (sized
    /// by `markWords`).
    @inlinable @inline(__always)
    func cellArea(words: Int) -> UnsafeMutablePointer<UInt64> {
        precondition(markCapacity >= words, "a scratch smaller than the cells were sized for")
        return marks + (markCapacity &- words)
    }

    /// Starts marking a counted bucket of `conditions` conditions: a new stamp voids every earlier word.
    @inlinable @inline(__always)
    func beginMarking(conditions: Int) -> UnsafeMutablePointer<UInt64> {
        precondition(conditions <= markCapacity, "a counted bucket larger than the scratch was sized for")
        markStamp &+= 1
        if markStamp == 0 {
            marks.update(repeating: 0, count: markCapacity)
            markStamp = 1
        }
        return marks
    }

    /// The memo cell of regex `slot` on interned string `id` (0 unknown, 1 no match, 2 match), or nil
    /// for a string interned after the scratch was sized (search it every time).
    @inlinable @inline(__always)
    func regexMemoCell(slot: Int, string id: Int) -> UnsafeMutablePointer<UInt8>? {
        id < memoStride ? memo + (slot * memoStride + id) : nil
    }

    /// Appends entry `e` to `listed`. A crowd lists each of its conditions at most once per event (each
    /// condition sits under one access predicate, each property key occurs once per event), so
    /// `listCapacity` (the largest crowd) is never exceeded; the check turns a broken invariant into a trap.
    @inlinable @inline(__always)
    package func appendListed(_ e: Int32) {
        precondition(listedCount < listCapacity, "more candidates listed than the crowd holds")
        listed[listedCount] = e
        listedCount &+= 1
    }

    /// Bytes one scratch's regex memo may take. Events with millions of distinct strings (search terms,
    /// URLs) would otherwise need a memo of regexes × strings; strings past the budget are searched each time.
    package static let memoBudget = 32 << 20

    /// The memo's stride for `regexes` memoised regexes over `events`: every string of the events when
    /// that fits `memoBudget`, else the first ones (never fewer than the corpus's, whose ids also index
    /// the per-event property slots).
    package static func memoStride(regexes: Int, for events: EventColumns) -> Int {
        let strings = events.symbols.count
        guard regexes > 0, regexes * strings > memoBudget else { return strings }
        return max(Int(events.corpusSymbolCount), memoBudget / regexes)
    }

    package init(triggerCount: Int, memoSlots: Int = 0, memoStride: Int = 0, listCapacity: Int = 0, markCapacity: Int = 0) {
        self.triggerCount = triggerCount
        self.markCapacity = max(markCapacity, 1)
        marks = Self.ownLines(max(markCapacity, 1), UInt64.self)
        marks.initialize(repeating: 0, count: max(markCapacity, 1))
        self.listCapacity = max(listCapacity, 1)
        listed = Self.ownLines(max(listCapacity, 1), Int32.self)
        results = Self.ownLines(max(triggerCount, 1), Int32.self)
        stamps = Self.ownLines(max(triggerCount, 1), UInt32.self)
        stamps.initialize(repeating: 0, count: max(triggerCount, 1))
        self.memoSlots = memoSlots
        self.memoStride = memoStride
        memo = Self.ownLines(max(memoSlots * memoStride, 1), UInt8.self)
        memo.initialize(repeating: 0, count: max(memoSlots * memoStride, 1))
        slots = Self.ownLines(max(memoStride, 1), Int32.self)
        slots.initialize(repeating: -1, count: max(memoStride, 1))
        slotStamps = Self.ownLines(max(memoStride, 1), UInt32.self)
        slotStamps.initialize(repeating: 0, count: max(memoStride, 1))
    }

    /// A buffer on cache lines of its own: each reader thread writes its scratch per event, and two
    /// scratches allocated one after the other must not share a line (false sharing halved 2-thread
    /// throughput on cheap workloads).
    static func ownLines<T>(_ count: Int, _: T.Type) -> UnsafeMutablePointer<T> {
        let line = 128  // two 64-byte lines: the adjacent-line prefetcher pairs them
        let bytes = (count * MemoryLayout<T>.stride + line - 1) / line * line
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: line).bindMemory(to: T.self, capacity: count)
    }

    deinit {
        if let attachment, let releaseAttachment { releaseAttachment(attachment) }
        UnsafeMutableRawPointer(results).deallocate()
        UnsafeMutableRawPointer(stamps).deallocate()
        UnsafeMutableRawPointer(memo).deallocate()
        UnsafeMutableRawPointer(slots).deallocate()
        UnsafeMutableRawPointer(slotStamps).deallocate()
        UnsafeMutableRawPointer(listed).deallocate()
        UnsafeMutableRawPointer(marks).deallocate()
    }

    /// Starts a new event: clears the results and advances the de-duplication stamp.
    @inlinable @inline(__always)
    package func begin() {
        resultCount = 0
        indexedEvent = -1
        stamp &+= 1
        if stamp == 0 {
            stamps.update(repeating: 0, count: max(triggerCount, 1))
            slotStamps.update(repeating: 0, count: max(memoStride, 1))
            stamp = 1
        }
    }

    /// The event whose properties `slots` holds for the current stamp, or -1.
    @usableFromInline @exclusivity(unchecked) var indexedEvent = -1
    /// `PredicateProgram.keyBit` of each property key of `indexedEvent`.
    @usableFromInline @exclusivity(unchecked) var presentKeys: UInt64 = 0

    /// Keeps the next heap object off this one's per-event counters (see `ownLines`).
    private let trailingPadding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Per-thread state of a matcher built outside TriggerKit (a plugin's), freed with the scratch.
    package private(set) var attachment: UnsafeMutableRawPointer?
    private var releaseAttachment: ((UnsafeMutableRawPointer) -> Void)?

    /// Hands `state` to this scratch; `release` frees it when the scratch goes.
    package func attach(_ state: UnsafeMutableRawPointer, release: @escaping (UnsafeMutableRawPointer) -> Void) {
        precondition(attachment == nil, "a scratch holds one attachment")
        attachment = state
        releaseAttachment = release
    }

    /// Files event `i`'s properties by key for O(1) `propertySlot` lookups (after `begin()`).
    @inlinable @inline(__always)
    package func indexProperties(of i: Int, in events: EventView) {
        indexedEvent = i
        var p = Int(events.propertyStart[i])
        let end = Int(events.propertyStart[i + 1])
        // Fields bound once: the stores below could alias them, so the loop would reload each per property.
        let slots = self.slots, slotStamps = self.slotStamps, stamp = self.stamp, stride = memoStride
        var present: UInt64 = 0
        while p < end {
            let key = Int(events.propertyKeys[p])
            present |= PredicateProgram.keyBit(Int32(truncatingIfNeeded: key))
            if key < stride {
                slots[key] = Int32(truncatingIfNeeded: p)
                slotStamps[key] = stamp
            }
            p &+= 1
        }
        presentKeys = present
    }

    /// Position of property `key` of event `i` in the property columns, or -1. The event's properties
    /// must be indexed (`indexProperties`): a bucket scan does that once, before its first entry, so
    /// events without candidates pay nothing and lookups test nothing else.
    @inlinable @inline(__always)
    package func propertySlot(_ key: Int32, of i: Int) -> Int {
        assert(indexedEvent == i, "propertySlot before indexProperties")
        let k = Int(key)
        return k < memoStride && slotStamps[k] == stamp ? Int(slots[k]) : -1
    }

    /// Records trigger `t` as matched unless it already is for this event; returns whether it was new.
    @inlinable @inline(__always) @discardableResult
    package func add(_ t: Int32) -> Bool {
        guard stamps[Int(t)] != stamp else { return false }
        stamps[Int(t)] = stamp
        results[resultCount] = t
        resultCount &+= 1
        return true
    }

    /// Records `count` triggers at `triggers` as matched (those not already); returns how many were new.
    @inlinable @inline(__always)
    package func addAll(_ triggers: UnsafePointer<Int32>, count: Int) -> Int {
        // Fields bound once: the stores below could alias them.
        let stamps = self.stamps, stamp = self.stamp, results = self.results
        var n = resultCount
        for k in 0..<count {
            let t = Int(triggers[k])
            if stamps[t] != stamp {
                stamps[t] = stamp
                results[n] = Int32(truncatingIfNeeded: t)
                n &+= 1
            }
        }
        let added = n &- resultCount
        resultCount = n
        return added
    }

    /// Whether trigger `t` already matched this event (so its other conditions need no evaluation).
    @inlinable @inline(__always)
    package func alreadyMatched(_ t: Int32) -> Bool { stamps[Int(t)] == stamp }

    /// The last event's matches, sorted into corpus order (allocates; for output, not the hot path).
    public var sortedResults: [Int] {
        (0..<resultCount).map { Int(results[$0]) }.sorted()
    }

    /// How many triggers the last event matched: `result(k)` for `k` in `0..<count`.
    @inlinable public var count: Int { resultCount }

    /// The `k`th trigger index the last event matched (`k < count`).
    @inlinable public func result(_ k: Int) -> Int32 { results[k] }
}
