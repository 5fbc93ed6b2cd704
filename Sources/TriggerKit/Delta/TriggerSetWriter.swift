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
    /// Snapshots so far whose touched buckets were rebuilt into the base's lookups (docs/deltas.md,
    /// "Writers"): readers match them at a fresh build's cost. 0 for a rebuilding writer.
    var redirects: Int { get }
    /// Applies `delta` and returns the new snapshot; a refused delta (`InputError`) changes nothing.
    @discardableResult
    func apply(_ delta: TriggerSetDelta) throws -> any Matcher
    /// A new writer starting again from this writer's first snapshot, which its snapshots share (a
    /// layered writer's base): readers holding that snapshot keep their scratches. Cheap.
    func restarted() -> any TriggerSetWriter
}

/// The writer of a strategy that does not apply deltas: every delta rebuilds the whole set.
package final class RebuildingWriter: TriggerSetWriter {
    private var currentSet: TriggerSet
    private var symbols: SymbolTable
    private let make: (TriggerSet, Vocabulary) throws -> any Matcher
    private let start: (set: TriggerSet, symbols: SymbolTable, matcher: any Matcher)
    package private(set) var matcher: any Matcher
    package private(set) var rebuilds = 0
    package var redirects: Int { 0 }
    package var appliesDeltas: Bool { false }
    package var triggerCount: Int { currentSet.triggers.count }

    /// `symbols`: the table the readers' events were interned with (`vocabulary`'s, extended by
    /// theirs); strings a delta brings are appended to it.
    package init(_ set: TriggerSet, vocabulary: Vocabulary, symbols: SymbolTable? = nil,
                make: @escaping (TriggerSet, Vocabulary) throws -> any Matcher) throws {
        currentSet = set
        self.symbols = symbols ?? vocabulary.symbols
        self.make = make
        matcher = try make(set, vocabulary)
        start = (set, self.symbols, matcher)
    }

    private init(restarting start: (set: TriggerSet, symbols: SymbolTable, matcher: any Matcher),
                 make: @escaping (TriggerSet, Vocabulary) throws -> any Matcher) {
        (currentSet, symbols, matcher) = start
        self.start = start
        self.make = make
    }

    package func restarted() -> any TriggerSetWriter { RebuildingWriter(restarting: start, make: make) }

    package func apply(_ delta: TriggerSetDelta) throws -> any Matcher {
        let next = try currentSet.applying(delta)
        for t in delta.add { t.forEachString { symbols.intern($0) } }
        for t in delta.replace { t.forEachString { symbols.intern($0) } }
        matcher = try make(next, Vocabulary(symbols: symbols))
        currentSet = next
        rebuilds += 1
        return matcher
    }
}

/// The writer of a strategy that applies deltas (docs/deltas.md). Its snapshots share one base matcher,
/// and each is built from the delta history since that base, in one of two ways:
/// - **redirected**: the buckets the history touched are rebuilt whole and the snapshot's lookups send
///   their events there (`Redirection`), so matching costs what a fresh build's does;
/// - **layered**, when a touched bucket is indexed or the touched buckets are big: the base triggers
///   removed or replaced are masked, and the triggers added or replaced are compiled into a small overlay.
/// Either costs the touched part's build, not the set's. When the history would pass `overlayLimit`
/// triggers, or a quarter of the base is masked, the writer merges: it builds a new base from the current set.
package final class LayeredWriter<Base: LayerableMatcher>: TriggerSetWriter {
    package static var overlayLimit: Int { 256 }
    /// The most entries a redirected snapshot copies (the touched buckets' live conditions); past it a
    /// delta is layered.
    package static var redirectLimit: Int { 1_024 }

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
    /// The newest snapshot (a layered one, or a redirected base) and its history.
    private var current: any Matcher
    private var currentLayer: DeltaLayer
    /// The first snapshot and the table it began with (`restarted()`).
    private let start: (snapshot: Base.Snapshot, symbols: SymbolTable)
    /// `redirectLimit` of this writer: -1 layers every delta (tests reach both ways with it).
    private let redirectLimit: Int
    package private(set) var rebuilds = 0
    /// Snapshots published redirected (the rest of the deltas were layered or merged).
    package private(set) var redirects = 0
    package var appliesDeltas: Bool { true }
    package var matcher: any Matcher { current }
    package var triggerCount: Int { currentLayer.liveCount }

    /// `symbols`: the table the readers' events were interned with (`vocabulary`'s, extended by theirs).
    package init(_ set: TriggerSet, vocabulary: Vocabulary, symbols: SymbolTable? = nil, redirectLimit: Int = LayeredWriter.redirectLimit) {
        self.symbols = symbols ?? vocabulary.symbols
        self.redirectLimit = redirectLimit
        base = Base(set, vocabulary: vocabulary)
        baseSet = set
        (family, dead, removed, nextRank) = Self.fresh(count: set.triggers.count, memoSlots: base.memoSlots)
        let clean = Self.clean(base, set, family)
        (current, currentLayer) = (clean, clean.layer)
        start = (clean, self.symbols)
    }

    private init(restarting start: (snapshot: Base.Snapshot, symbols: SymbolTable), redirectLimit: Int) {
        self.start = start
        self.redirectLimit = redirectLimit
        (current, currentLayer) = (start.snapshot, start.snapshot.layer)
        symbols = start.symbols
        base = start.snapshot.base
        baseSet = start.snapshot.layer.baseSet
        (_, dead, removed, nextRank) = Self.fresh(count: baseSet.triggers.count, memoSlots: 0)
        family = start.snapshot.layer.family
    }

    package func restarted() -> any TriggerSetWriter { LayeredWriter(restarting: start, redirectLimit: redirectLimit) }

    /// A snapshot of `base` alone.
    private static func clean(_ base: Base, _ set: TriggerSet, _ family: DeltaFamily) -> Base.Snapshot {
        Base.Snapshot(base: base, layer: DeltaLayer(
            family: family, baseSet: set, dead: FrozenBuffer([0]), deadCount: 0, basePosition: nil, overlay: nil,
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

    package func apply(_ delta: TriggerSetDelta) throws -> any Matcher {
        try delta.validate(count: triggerCount) { contains($0) }
        for k in delta.add.indices { delta.add[k].forEachString { symbols.intern($0) } }
        for k in delta.replace.indices { delta.replace[k].forEachString { symbols.intern($0) } }
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
        for k in delta.replace.indices {
            let id = delta.replace[k].id
            if let i = pending.index(forKey: id) {
                pending.values[i].trigger = delta.replace[k]
            } else {
                let j = baseSet.indexByID[id]!
                mask(j)
                pending[id] = (j, delta.replace[k])
            }
        }
        for k in delta.add.indices {
            pending[delta.add[k].id] = (nextRank, delta.add[k])
            nextRank += 1
        }
        if removedBase { basePosition = renumberedBase() }
        if pending.count > Self.overlayLimit || deadCount * 4 > max(n0, 64) {
            merge()
        } else {
            let order = pendingOrder()
            if let redirected = redirectedSnapshot(order) {
                (current, currentLayer) = redirected
                redirects += 1
            } else {
                let layered = Base.Snapshot(base: base, layer: layer(order))
                (current, currentLayer) = (layered, layered.layer)
            }
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

    private typealias PendingIndex = (rank: Int, index: Dictionary<String, (rank: Int, trigger: Trigger)>.Index)

    /// `pending`'s indices in rank order: sorted as (rank, index) pairs, so each trigger is copied once.
    private func pendingOrder() -> [PendingIndex] {
        var order = pending.indices.map { (rank: pending[$0].value.rank, index: $0) }
        order.sort { $0.rank < $1.rank }
        return order
    }

    /// The pending triggers in rank order (`order`: `pendingOrder()`), with their positions in the current set.
    private func rankedPending(_ order: [PendingIndex]? = nil)
        -> (triggers: [Trigger], positions: [Int32], liveCount: Int) {
        let n0 = baseSet.triggers.count
        let order = order ?? pendingOrder()
        // Base triggers still in the set (a replaced one is masked in the base but counted here).
        let baseLive = n0 - removedCount
        var positions: [Int32] = []
        positions.reserveCapacity(order.count)
        var added: Int32 = 0
        var triggers: [Trigger] = []
        triggers.reserveCapacity(order.count)
        for p in order {
            triggers.append(pending.values[p.index].trigger)
            if p.rank < n0 {
                positions.append(basePosition?[p.rank] ?? Int32(p.rank))
            } else {
                positions.append(Int32(baseLive) + added)
                added += 1
            }
        }
        return (triggers, positions, baseLive + Int(added))
    }

    /// The layer of the current history: the overlay compiled from the pending triggers in rank order.
    private func layer(_ order: [PendingIndex]) -> DeltaLayer {
        let (triggers, positions, liveCount) = rankedPending(order)
        var overlay: OverlaySpans?
        if !triggers.isEmpty {
            let overlaySet = TriggerSet(triggers: triggers, minimumTriggerInterval: baseSet.minimumTriggerInterval,
                                        actionCategories: baseSet.actionCategories)
            overlay = OverlaySpans(overlaySet, vocabulary: Vocabulary(symbols: symbols), slotBase: Int32(baseSet.triggers.count))
        }
        return DeltaLayer(family: family, baseSet: baseSet, dead: FrozenBuffer(dead), deadCount: deadCount, basePosition: basePosition,
                          overlay: overlay, overlayTriggers: triggers, overlayPosition: positions, liveCount: liveCount)
    }

    /// The snapshot of the current history with every touched bucket redirected (`Redirection`), or nil.
    /// A replaced base trigger reports its base slot; the `k`-th added one (in rank order) slot `n0 + k`,
    /// which is its position unless a base trigger left: then results are renumbered as in a layer.
    /// Published as the redirected base itself when its layer has nothing to do per event, so readers run
    /// exactly a base's code (a snapshot holding the base copied it to the stack for every event).
    private func redirectedSnapshot(_ order: [PendingIndex]) -> (any Matcher, DeltaLayer)? {
        guard redirectLimit >= 0 else { return nil }
        let n0 = baseSet.triggers.count
        var added: Int32 = 0
        let items = order.map { p -> (slot: Int32, trigger: Trigger) in
            let (rank, trigger) = pending.values[p.index]
            if rank < n0 { return (Int32(rank), trigger) }
            added += 1
            return (Int32(n0) + added - 1, trigger)
        }
        guard let (buckets, spans) = Redirection.redirect(base, baseSet: baseSet, dead: dead, pending: items, symbols: symbols,
                                                         limit: redirectLimit) else { return nil }
        let (triggers, positions, liveCount) = rankedPending(order)
        let baseLive = Int32(n0 - removedCount)
        let layer = DeltaLayer(family: family, baseSet: baseSet, dead: FrozenBuffer(dead), deadCount: deadCount, basePosition: basePosition,
                               overlay: nil, overlayTriggers: triggers, overlayPosition: positions, liveCount: liveCount, redirected: true,
                               addedPosition: (0..<added).map { baseLive + $0 })
        let redirected = Base(base, buckets: buckets, redirected: spans, layer: layer)
        return (layer.active ? Base.Snapshot(base: redirected, layer: layer) : redirected, layer)
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
        let clean = Self.clean(base, set, family)
        (current, currentLayer) = (clean, clean.layer)
    }
}
