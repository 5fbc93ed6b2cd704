/// The one writer of a published trigger set that changes by deltas: it validates each delta against
/// the current set, builds the next snapshot, and keeps what the next delta needs. Not thread-safe
/// (one writer); the matchers it returns are immutable and may be published to any number of readers.
public protocol TriggerSetWriter: AnyObject {
    /// The newest snapshot.
    var matcher: any Matcher { get }
    /// Triggers in the newest snapshot.
    var triggerCount: Int { get }
    /// Whether a delta is applied to the snapshot (true) or the whole set rebuilt (false).
    var appliesDeltas: Bool { get }
    /// Full rebuilds so far (merges of the layer into a new base, or every delta when not applying).
    var rebuilds: Int { get }
    /// Applies `delta` and returns the new snapshot; a refused delta (`InputError`) changes nothing.
    @discardableResult
    func apply(_ delta: TriggerSetDelta) throws -> any Matcher
}

/// The writer of a strategy that does not apply deltas: every delta rebuilds the whole set.
public final class RebuildingWriter: TriggerSetWriter {
    private var currentSet: TriggerSet
    private var symbols: SymbolTable
    private let make: (TriggerSet, Vocabulary) throws -> any Matcher
    public private(set) var matcher: any Matcher
    public private(set) var rebuilds = 0
    public var appliesDeltas: Bool { false }
    public var triggerCount: Int { currentSet.triggers.count }

    /// `symbols`: the table the readers' events were interned with (`vocabulary`'s, extended by
    /// theirs); strings a delta brings are appended to it.
    public init(_ set: TriggerSet, vocabulary: Vocabulary, symbols: SymbolTable? = nil,
                make: @escaping (TriggerSet, Vocabulary) throws -> any Matcher) throws {
        currentSet = set
        self.symbols = symbols ?? vocabulary.symbols
        self.make = make
        matcher = try make(set, vocabulary)
    }

    public func apply(_ delta: TriggerSetDelta) throws -> any Matcher {
        let next = try currentSet.applying(delta)
        for t in delta.add { t.forEachString { symbols.intern($0) } }
        for t in delta.replace { t.forEachString { symbols.intern($0) } }
        matcher = try make(next, Vocabulary(symbols: symbols))
        currentSet = next
        rebuilds += 1
        return matcher
    }
}

/// The writer of a strategy that applies deltas (docs/deltas.md). Its snapshots share one base matcher;
/// each adds a layer built from the delta's history since that base: the base triggers removed or
/// replaced are masked, the triggers added or replaced are compiled into a small overlay. A delta
/// costs the overlay's build, not the set's. When the overlay would pass `overlayLimit` triggers, or
/// a quarter of the base is masked, the writer merges: it builds a new base from the current set.
public final class LayeredWriter<Base: LayerableMatcher>: TriggerSetWriter {
    public static var overlayLimit: Int { 256 }

    private var symbols: SymbolTable
    private var base: Base
    private var baseSet: TriggerSet
    private var family: DeltaFamily
    /// Base triggers masked (bit per base index), and those of them that left the set.
    private var dead: [UInt64]
    private var deadCount = 0
    private var removed: [UInt64]
    private var removedCount = 0
    /// Positions of the base triggers after removals; rebuilt when a base trigger leaves.
    private var basePosition: FrozenBuffer<Int32>?
    /// Triggers added or replaced since the base, by id: rank (a base trigger's index, or past the
    /// base's end in order of addition) and current definition.
    private var pending: [String: (rank: Int, trigger: Trigger)] = [:]
    private var nextRank: Int
    private var current: LayeredMatcher<Base>
    public private(set) var rebuilds = 0
    public var appliesDeltas: Bool { true }
    public var matcher: any Matcher { current }
    public var triggerCount: Int { current.triggerCount }

    /// `symbols`: the table the readers' events were interned with (`vocabulary`'s, extended by theirs).
    public init(_ set: TriggerSet, vocabulary: Vocabulary, symbols: SymbolTable? = nil) {
        self.symbols = symbols ?? vocabulary.symbols
        base = Base(set, vocabulary: vocabulary)
        baseSet = set
        (family, dead, removed, nextRank) = Self.fresh(count: set.triggers.count, memoSlots: base.memoSlots)
        current = LayeredMatcher(base: base, layer: DeltaLayer(
            family: family, baseSet: set, dead: FrozenBuffer([0]), hasDead: false, basePosition: nil, overlay: nil,
            overlayTriggers: [], overlayPosition: [], liveCount: set.triggers.count))
    }

    private static func fresh(count: Int, memoSlots: Int) -> (DeltaFamily, [UInt64], [UInt64], Int) {
        let words = max(1, (count + 63) / 64)
        return (DeltaFamily(scratchTriggers: count + overlayLimit, memoSlots: memoSlots),
                [UInt64](repeating: 0, count: words), [UInt64](repeating: 0, count: words), count)
    }

    /// Whether `id` is in the current set.
    private func contains(_ id: String) -> Bool {
        if pending[id] != nil { return true }
        guard let j = baseSet.indexByID[id] else { return false }
        return dead[j >> 6] & (1 << UInt64(j & 63)) == 0
    }

    public func apply(_ delta: TriggerSetDelta) throws -> any Matcher {
        try delta.validate(count: current.triggerCount) { contains($0) }
        for t in delta.add { t.forEachString { symbols.intern($0) } }
        for t in delta.replace { t.forEachString { symbols.intern($0) } }
        let n0 = baseSet.triggers.count
        var removedBase = false
        func mask(_ j: Int) {
            if dead[j >> 6] & (1 << UInt64(j & 63)) == 0 { deadCount += 1 }
            dead[j >> 6] |= 1 << UInt64(j & 63)
        }
        for id in delta.remove {
            let rank = pending.removeValue(forKey: id)?.rank ?? baseSet.indexByID[id]!
            guard rank < n0 else { continue }
            mask(rank)
            removed[rank >> 6] |= 1 << UInt64(rank & 63)
            removedCount += 1
            removedBase = true
        }
        for t in delta.replace {
            if pending[t.id] != nil {
                pending[t.id]!.trigger = t
            } else {
                let j = baseSet.indexByID[t.id]!
                mask(j)
                pending[t.id] = (j, t)
            }
        }
        for t in delta.add {
            pending[t.id] = (nextRank, t)
            nextRank += 1
        }
        if removedBase { basePosition = renumberedBase() }
        if pending.count > Self.overlayLimit || deadCount * 4 > max(n0, 64) {
            merge()
        } else {
            current = LayeredMatcher(base: base, layer: layer())
        }
        return current
    }

    /// Each base trigger's position once the removed ones are gone (-1 for those).
    private func renumberedBase() -> FrozenBuffer<Int32> {
        var positions = [Int32](repeating: -1, count: baseSet.triggers.count)
        var next: Int32 = 0
        for j in positions.indices where removed[j >> 6] & (1 << UInt64(j & 63)) == 0 {
            positions[j] = next
            next += 1
        }
        return FrozenBuffer(positions)
    }

    /// The pending triggers in rank order, with their positions in the current set.
    private func rankedPending() -> (triggers: [Trigger], positions: [Int32], liveCount: Int) {
        let n0 = baseSet.triggers.count
        let ranked = pending.values.sorted { $0.rank < $1.rank }
        // Base triggers still in the set (a replaced one is masked in the base but counted here).
        let baseLive = n0 - removedCount
        var positions: [Int32] = []
        positions.reserveCapacity(ranked.count)
        var added: Int32 = 0
        for p in ranked {
            if p.rank < n0 {
                positions.append(basePosition?[p.rank] ?? Int32(p.rank))
            } else {
                positions.append(Int32(baseLive) + added)
                added += 1
            }
        }
        return (ranked.map(\.trigger), positions, baseLive + Int(added))
    }

    /// The layer of the current history: the overlay compiled from the pending triggers in rank order.
    private func layer() -> DeltaLayer {
        let (triggers, positions, liveCount) = rankedPending()
        var overlay: OverlayRuns?
        if !triggers.isEmpty {
            let overlaySet = TriggerSet(triggers: triggers, minimumTriggerInterval: baseSet.minimumTriggerInterval,
                                        actionCategories: baseSet.actionCategories)
            overlay = OverlayRuns(overlaySet, vocabulary: Vocabulary(symbols: symbols), slotBase: Int32(baseSet.triggers.count))
        }
        return DeltaLayer(family: family, baseSet: baseSet, dead: FrozenBuffer(dead), hasDead: deadCount > 0, basePosition: basePosition,
                          overlay: overlay, overlayTriggers: triggers, overlayPosition: positions, liveCount: liveCount)
    }

    /// Builds a new base from the current set; the layer starts empty and readers make new scratches.
    private func merge() {
        let (triggers, positions, liveCount) = rankedPending()
        let mask = dead
        let set = DeltaLayer.materialize(baseSet, isDead: { mask[Int($0) >> 6] & (1 << UInt64($0 & 63)) != 0 }, basePosition: basePosition,
                                         overlayTriggers: triggers, overlayPosition: { positions[$0] }, liveCount: liveCount)
        base = Base(set, vocabulary: Vocabulary(symbols: symbols))
        baseSet = set
        (family, dead, removed, nextRank) = Self.fresh(count: set.triggers.count, memoSlots: base.memoSlots)
        deadCount = 0
        removedCount = 0
        basePosition = nil
        pending = [:]
        rebuilds += 1
        current = LayeredMatcher(base: base, layer: DeltaLayer(
            family: family, baseSet: set, dead: FrozenBuffer([0]), hasDead: false, basePosition: nil, overlay: nil,
            overlayTriggers: [], overlayPosition: [], liveCount: set.triggers.count))
    }
}
