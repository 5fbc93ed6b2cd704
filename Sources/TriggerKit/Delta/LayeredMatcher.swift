import Synchronization

/// A strategy a delta writer can keep as the shared base of its snapshots (`compiled`, `predicate-index`).
public protocol LayerableMatcher: Matcher {
    init(_ set: TriggerSet, vocabulary: Vocabulary)
    /// Room a scratch's candidate list needs (the largest crowd; 0 when nothing is listed).
    var listCapacity: Int { get }
    /// Regex memo slots a scratch needs.
    var memoSlots: Int { get }
}

extension CompiledMatcher: LayerableMatcher {
    public var listCapacity: Int { 0 }
    public var memoSlots: Int { program.regexes.count }
}

extension PredicateIndexMatcher: LayerableMatcher {
    public var listCapacity: Int { largestCrowd }
    public var memoSlots: Int { program.regexes.count }
}

/// What a base and every snapshot layered on it share: the scratch room they all fit in. A reader
/// keeps its scratch while the family stays the same, and makes a new one when a merge starts another.
final class DeltaFamily: Sendable {
    /// De-duplication stamps: the base's triggers, then room for the largest overlay.
    let scratchTriggers: Int
    /// Regex memo slots: the base's regexes (an overlay's are not memoised).
    let memoSlots: Int

    init(scratchTriggers: Int, memoSlots: Int) {
        self.scratchTriggers = scratchTriggers
        self.memoSlots = memoSlots
    }
}

/// One delta-built snapshot's difference from its base: base triggers that no longer match (removed or
/// replaced), the overlay of triggers added or replaced since the base, and where each match lands in
/// the snapshot's order. Immutable.
final class DeltaLayer: Sendable {
    let family: DeltaFamily
    let baseSet: TriggerSet
    /// Base triggers that must not match: bit `j` of word `j >> 6`. Empty when none.
    let dead: FrozenBuffer<UInt64>
    /// Position in the snapshot's order of each base trigger, or nil when it is its base index (no base
    /// trigger removed).
    let basePosition: FrozenBuffer<Int32>?
    let overlay: OverlayRuns?
    /// The overlay's triggers in rank order, and the position of each in the snapshot's order.
    let overlayTriggers: [Trigger]
    let overlayPosition: FrozenBuffer<Int32>
    /// Whether results need anything done to them after the base has matched.
    let active: Bool
    let liveCount: Int
    private let materialized = Mutex<TriggerSet?>(nil)

    init(family: DeltaFamily, baseSet: TriggerSet, dead: FrozenBuffer<UInt64>, hasDead: Bool, basePosition: FrozenBuffer<Int32>?,
         overlay: OverlayRuns?, overlayTriggers: [Trigger], overlayPosition: [Int32], liveCount: Int) {
        self.family = family
        self.baseSet = baseSet
        self.dead = dead
        self.basePosition = basePosition
        self.overlay = overlay
        self.overlayTriggers = overlayTriggers
        self.overlayPosition = FrozenBuffer(overlayPosition)
        self.liveCount = liveCount
        active = hasDead || basePosition != nil || overlay != nil
        if !active { materialized.withLock { $0 = baseSet } }
    }

    /// What matching reads, as plain pointers into this layer (see `OverlayRuns.View`).
    var view: View {
        View(active: active, baseCount: Int32(baseSet.triggers.count), dead: dead.base, basePosition: basePosition?.base,
             overlay: overlay?.view, overlayPosition: overlayPosition.base)
    }

    @inline(__always)
    func isDead(_ j: Int32) -> Bool { view.isDead(j) }

    struct View: @unchecked Sendable {
        let active: Bool
        let baseCount: Int32
        let dead: UnsafeMutablePointer<UInt64>
        let basePosition: UnsafeMutablePointer<Int32>?
        let overlay: OverlayRuns.View?
        let overlayPosition: UnsafeMutablePointer<Int32>

        @inline(__always)
        func isDead(_ j: Int32) -> Bool { dead[Int(j) >> 6] & (1 &<< UInt64(j & 63)) != 0 }

        /// The overlay's matches, then `settle`. Out of line: inlined into `match`, the overlay's
        /// evaluation loop gave every event a large frame to set up.
        @inline(never)
        func finish(_ i: Int, in events: EventView, scratch: MatchScratch) {
            overlay?.match(i, in: events, scratch: scratch)
            if scratch.count > 0 { settle(scratch) }
        }

        /// Drops matches of dead base triggers and renumbers the rest into the snapshot's order.
        @inline(__always)
        func settle(_ scratch: MatchScratch) {
            var kept = 0
            for k in 0..<scratch.count {
                let slot = scratch.results[k]
                let position: Int32
                if slot < baseCount {
                    if isDead(slot) { continue }
                    position = basePosition?[Int(slot)] ?? slot
                } else {
                    position = overlayPosition[Int(slot &- baseCount)]
                }
                scratch.results[kept] = position
                kept &+= 1
            }
            scratch.count = kept
        }
    }

    /// The snapshot's trigger set, built on first use (every trigger is copied: not for the hot path).
    var triggerSet: TriggerSet {
        materialized.withLock { cached in
            if let cached { return cached }
            let set = Self.materialize(baseSet, isDead: isDead, basePosition: basePosition, overlayTriggers: overlayTriggers,
                                       overlayPosition: { self.overlayPosition[$0] }, liveCount: liveCount)
            cached = set
            return set
        }
    }

    /// The set a base and a history make: live base triggers and the overlay's, in position order.
    static func materialize(_ baseSet: TriggerSet, isDead: (Int32) -> Bool, basePosition: FrozenBuffer<Int32>?,
                            overlayTriggers: [Trigger], overlayPosition: (Int) -> Int32, liveCount: Int) -> TriggerSet {
        var live: [(position: Int32, trigger: Trigger)] = []
        live.reserveCapacity(liveCount)
        for j in baseSet.triggers.indices where !isDead(Int32(j)) {
            live.append((basePosition?[j] ?? Int32(j), baseSet.triggers[j]))
        }
        for (k, t) in overlayTriggers.enumerated() { live.append((overlayPosition(k), t)) }
        live.sort { $0.position < $1.position }
        return TriggerSet(triggers: live.map(\.trigger), minimumTriggerInterval: baseSet.minimumTriggerInterval,
                          actionCategories: baseSet.actionCategories)
    }
}

/// A snapshot a delta writer publishes: a base matcher shared with every snapshot since the last
/// merge, and the layer that says what changed since. Matches are reported in the snapshot's own
/// order, as a from-scratch build of the same set would report them.
public struct LayeredMatcher<Base: LayerableMatcher>: Matcher {
    public static var strategyName: String { Base.strategyName }
    public let base: Base
    let layer: DeltaLayer
    /// The layer's pointers, inline: matching loads nothing from the layer object.
    let hot: DeltaLayer.View

    init(base: Base, layer: DeltaLayer) {
        self.base = base
        self.layer = layer
        hot = layer.view
    }

    /// Built on first use: copies every trigger.
    public var triggerSet: TriggerSet { layer.triggerSet }

    /// Triggers in the snapshot.
    public var triggerCount: Int { layer.liveCount }

    public func makeScratch(for events: EventColumns) -> MatchScratch {
        let family = layer.family
        return MatchScratch(triggerCount: family.scratchTriggers, memoSlots: family.memoSlots,
                            memoStride: MatchScratch.memoStride(regexes: family.memoSlots, for: events), listCapacity: base.listCapacity)
    }

    public func canReuseScratch(of previous: any Matcher) -> Bool {
        (previous as? Self)?.layer.family === layer.family
    }

    public func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        base.match(i, in: events, scratch: scratch)
        if hot.active { hot.finish(i, in: events, scratch: scratch) }
    }
}
