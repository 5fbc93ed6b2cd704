import Synchronization

/// What a base and every snapshot layered on it share: the scratch room they all fit in. A reader
/// keeps its scratch while the family stays the same, and makes a new one when a merge starts another.
package final class DeltaFamily: Sendable {
    /// De-duplication stamps: the base's triggers, then room for the largest overlay.
    let scratchTriggers: Int
    /// Regex memo slots: the base's regexes (an overlay's are not memoised).
    let memoSlots: Int

    init(scratchTriggers: Int, memoSlots: Int) {
        self.scratchTriggers = scratchTriggers
        self.memoSlots = memoSlots
    }

    /// A scratch every snapshot of this family can use.
    func makeScratch(for events: EventColumns, listCapacity: Int, markCapacity: Int) -> MatchScratch {
        MatchScratch(triggerCount: scratchTriggers, memoSlots: memoSlots, memoStride: MatchScratch.memoStride(regexes: memoSlots, for: events),
                     listCapacity: listCapacity, markCapacity: markCapacity)
    }

    /// Whether `previous` is a snapshot of this family (so its scratch serves).
    func includes(_ previous: any Matcher) -> Bool {
        (previous as? any DeltaSnapshot)?.deltaFamily === self
    }
}

/// A matcher a delta writer may publish: a layered snapshot, or a redirected base (nil family when built
/// from a whole set).
package protocol DeltaSnapshot: Matcher {
    var deltaFamily: DeltaFamily? { get }
}

/// One delta-built snapshot's difference from its base: base triggers that no longer match (removed or
/// replaced), the overlay of triggers added or replaced since the base, and where each match lands in
/// the snapshot's order. Immutable.
/// Unchecked: `overlayView` and `hot` are written once, in `init`, and only read after (like every other field).
package final class DeltaLayer: @unchecked Sendable {
    let family: DeltaFamily
    let baseSet: TriggerSet
    /// Base triggers that must not match: bit `j` of word `j >> 6`. Empty when none.
    let dead: FrozenBuffer<UInt64>
    /// Position in the snapshot's order of each base trigger, or nil when it is its base index (no base
    /// trigger removed).
    let basePosition: FrozenBuffer<Int32>?
    let overlay: OverlaySpans?
    let deadCount: Int
    let stamped: FrozenBuffer<Int32>
    /// The overlay's view, where every snapshot's `View` points (freed with the layer).
    let overlayView: UnsafeMutablePointer<OverlaySpans.View>?
    /// `view`, where snapshots point (freed with the layer): a snapshot that held the view inline made
    /// its `match` load and spill all of it for every event.
    private(set) var hot: UnsafePointer<View>!
    /// The overlay's triggers in rank order, and the position of each in the snapshot's order.
    let overlayTriggers: [Trigger]
    let overlayPosition: FrozenBuffer<Int32>
    /// Whether results need anything done to them after the base has matched.
    let active: Bool
    /// Whether the snapshot's base redirects every bucket the history touched (`RedirectedSpans`):
    /// masked triggers are then never reached, and nothing is stamped, dropped or overlaid.
    let redirected: Bool
    /// Redirected: the position of each added trigger's slot (`baseCount + k`) in the snapshot's order.
    let addedPosition: FrozenBuffer<Int32>
    let liveCount: Int
    private let materialized = Mutex<TriggerSet?>(nil)

    init(family: DeltaFamily, baseSet: TriggerSet, dead: FrozenBuffer<UInt64>, deadCount: Int, basePosition: FrozenBuffer<Int32>?,
         overlay: OverlaySpans?, overlayTriggers: [Trigger], overlayPosition: [Int32], liveCount: Int,
         redirected: Bool = false, addedPosition: [Int32] = []) {
        self.deadCount = deadCount
        self.redirected = redirected
        self.addedPosition = FrozenBuffer(addedPosition)
        var stamped: [Int32] = []
        if deadCount <= Self.stampLimit, !redirected {
            for w in 0..<dead.count where dead[w] != 0 {
                var bits = dead[w]
                while bits != 0 {
                    stamped.append(Int32(w * 64 + bits.trailingZeroBitCount))
                    bits &= bits &- 1
                }
            }
        }
        self.stamped = FrozenBuffer(stamped)
        if let overlay {
            let view = UnsafeMutablePointer<OverlaySpans.View>.allocate(capacity: 1)
            view.initialize(to: overlay.view)
            overlayView = view
        } else {
            overlayView = nil
        }
        self.family = family
        self.baseSet = baseSet
        self.dead = dead
        self.basePosition = basePosition
        self.overlay = overlay
        self.overlayTriggers = overlayTriggers
        self.overlayPosition = FrozenBuffer(overlayPosition)
        self.liveCount = liveCount
        // Redirected, base matches are already the snapshot's unless a base trigger left (positions shift).
        active = redirected ? basePosition != nil : deadCount > 0 || basePosition != nil || overlay != nil
        // Nothing changed since the base: its set is the snapshot's (a redirected layer is inactive with changes).
        if deadCount == 0, basePosition == nil, overlayTriggers.isEmpty { materialized.withLock { $0 = baseSet } }
        let hot = UnsafeMutablePointer<View>.allocate(capacity: 1)
        hot.initialize(to: view)
        self.hot = UnsafePointer(hot)
    }

    deinit {
        overlayView?.deallocate()
        hot.deallocate()
    }

    /// Masked base triggers a reader stamps as matched before the base matches, so they are neither
    /// evaluated nor reported, when there are at most this many; with more, their matches are dropped
    /// afterwards instead (a store per masked trigger per event would cost more than a test per match).
    static let stampLimit = 16

    /// What matching reads, as plain pointers into this layer (see `OverlaySpans.View`).
    var view: View {
        View(active: active, baseCount: Int32(baseSet.triggers.count), dead: dead.base, stamped: stamped.base, stampedCount: stamped.count,
             dropDead: deadCount > Self.stampLimit && !redirected, basePosition: basePosition?.base, overlay: overlayView,
             overlayFilter: overlayView?.pointee.filter, overlayPosition: redirected ? addedPosition.base : overlayPosition.base)
    }

    @inline(__always)
    func isDead(_ j: Int32) -> Bool { dead[Int(j) >> 6] & (1 &<< UInt64(j & 63)) != 0 }

    package struct View: @unchecked Sendable {
        let active: Bool
        let baseCount: Int32
        let dead: UnsafeMutablePointer<UInt64>
        /// The masked base triggers to stamp (empty when there are more than `stampLimit`).
        let stamped: UnsafeMutablePointer<Int32>
        let stampedCount: Int
        /// Whether masked triggers' matches must be dropped after matching (more than `stampLimit`).
        let dropDead: Bool
        let basePosition: UnsafeMutablePointer<Int32>?
        /// Behind a pointer: copying the overlay's dozen pointers for every event cost more than the test.
        let overlay: UnsafeMutablePointer<OverlaySpans.View>?
        let overlayFilter: UnsafeMutablePointer<UInt64>?
        let overlayPosition: UnsafeMutablePointer<Int32>

        @inline(__always)
        func isDead(_ j: Int32) -> Bool { dead[Int(j) >> 6] & (1 &<< UInt64(j & 63)) != 0 }

        /// Stamps the masked base triggers as matched for this event (after `scratch.begin()`), so
        /// the base neither evaluates nor reports them. Static, on the pointer: a method call copied
        /// the whole view to the stack for every event.
        @inline(__always)
        static func stampMasked(_ hot: UnsafePointer<View>, _ scratch: MatchScratch) {
            let count = hot.pointee.stampedCount
            guard count > 0 else { return }
            let stamped = hot.pointee.stamped, stamp = scratch.stamp, stamps = scratch.stamps
            for k in 0..<count { stamps[Int(stamped[k])] = stamp }
        }

        /// Adds the overlay's matches and puts the results into the snapshot's order (after the base).
        @inline(__always)
        static func finish(_ hot: UnsafePointer<View>, _ i: Int, in events: EventView, scratch: MatchScratch) {
            guard hot.pointee.active else { return }
            let fromBase = scratch.count
            if let overlay = hot.pointee.overlay, let filter = hot.pointee.overlayFilter {
                let kind = events.kinds[i], id = events.keys[i]
                if id >= 0 { OverlaySpans.View.scan(overlay, filter, OverlaySpans.key(kind: kind, id: id), i, events, scratch) }
                if kind != EventKindCode.customEvent.rawValue {
                    OverlaySpans.View.scan(overlay, filter, OverlaySpans.key(kind: kind, id: -1), i, events, scratch)
                }
            }
            // Base matches need nothing when the masked triggers were stamped and none was removed.
            let first = hot.pointee.dropDead || hot.pointee.basePosition != nil ? 0 : fromBase
            if scratch.count > first { hot.pointee.settle(scratch, from: first) }
        }

        /// Drops matches of masked base triggers and puts the rest into the snapshot's order, from
        /// result `first` on.
        @inline(never)
        func settle(_ scratch: MatchScratch, from first: Int) {
            var kept = first
            for k in first..<scratch.count {
                let slot = scratch.results[k]
                let position: Int32
                if slot < baseCount {
                    if dropDead && isDead(slot) { continue }
                    position = basePosition?[Int(slot)] ?? slot
                } else {
                    position = overlayPosition[Int(slot &- baseCount)]
                }
                scratch.results[kept] = position
                kept &+= 1
            }
            scratch.resultCount = kept
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
