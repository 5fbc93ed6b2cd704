/// A strategy a delta writer can keep as the shared base of its snapshots (`compiled`, `predicate-index`).
package protocol LayerableMatcher: DeltaSnapshot {
    associatedtype Snapshot: LayeredSnapshot where Snapshot.Base == Self
    init(_ set: TriggerSet, vocabulary: Vocabulary)
    /// Room a scratch's candidate list needs (the largest bucket an index lists from; 0 when nothing is listed).
    var listCapacity: Int { get }
    /// Room a scratch's mark words need (`MatchScratch.markWords`; 0 when nothing is marked).
    var markCapacity: Int { get }
    /// Regex memo slots a scratch needs.
    var memoSlots: Int { get }
    /// `match` after `scratch.begin()`.
    func matchBegun(_ i: Int, in events: EventView, scratch: MatchScratch)
    var buckets: TriggerBuckets { get }
    var program: PredicateProgram { get }
    var spans: PredicateProgram.Spans { get }
    /// Whether each product's (campaign's) span holds a copy of the any-purchase (any-push) bucket.
    var mergedSpans: Bool { get }
    /// Whether bucket `b` is scanned (neither indexed nor counted), so a snapshot may redirect its key.
    func scans(bucket b: Int32) -> Bool
    /// `base` whose lookups are `buckets`, sending some keys to `redirected`'s spans: the snapshot of
    /// `layer`'s set, published as it is when the layer needs nothing done per event.
    init(_ base: Self, buckets: TriggerBuckets, redirected: RedirectedSpans, layer: DeltaLayer)
}

extension CompiledMatcher: LayerableMatcher {
    package typealias Snapshot = LayeredCompiledMatcher
    package var listCapacity: Int { 0 }
    package var markCapacity: Int { 0 }
    package var memoSlots: Int { program.regexes.count }
    package var mergedSpans: Bool { spans.merged }
    package func scans(bucket b: Int32) -> Bool { true }
    package var deltaFamily: DeltaFamily? { origin.delta?.family }
}

extension PredicateIndexMatcher: LayerableMatcher {
    package typealias Snapshot = LayeredPredicateIndexMatcher
    package var listCapacity: Int { largestListed }
    package var markCapacity: Int {
        MatchScratch.markWords(marked: max(largestCounted, largestLiteralCrowd), cellArea: cellScratchWords)
    }
    package var memoSlots: Int { program.regexes.count }
    package var mergedSpans: Bool { spans.merged }
    package func scans(bucket b: Int32) -> Bool { plan(of: b) == .scan }
    package var deltaFamily: DeltaFamily? { origin.delta?.family }
}

/// A snapshot a delta writer publishes: a base matcher shared with every snapshot since the last
/// merge, and the layer that says what changed since. Matches are reported in the snapshot's own
/// order, as a from-scratch build of the same set would report them.
///
/// One concrete type per base (`LayeredCompiledMatcher`, `LayeredPredicateIndexMatcher`), not one
/// generic struct: readers reach `match` through the protocol witness, and a generic struct's witness
/// is its unspecialised body, which cost 52 instructions per event on `default` before the base's
/// `match` was even called. A concrete type's witness calls a specialised body.
package protocol LayeredSnapshot: DeltaSnapshot {
    associatedtype Base: LayerableMatcher
    var base: Base { get }
    var layer: DeltaLayer { get }
    /// The layer's pointers (owned by `layer`): matching loads nothing from the layer object.
    var hot: UnsafePointer<DeltaLayer.View> { get }
    init(base: Base, layer: DeltaLayer)
}

extension LayeredSnapshot {
    package static var strategyName: String { Base.strategyName }

    /// Built on first use: copies every trigger.
    package var triggerSet: TriggerSet { layer.triggerSet }

    /// Triggers in the snapshot.
    package var triggerCount: Int { layer.liveCount }

    package func makeScratch(for events: EventColumns) -> MatchScratch {
        layer.family.makeScratch(for: events, listCapacity: base.listCapacity, markCapacity: base.markCapacity)
    }

    package var deltaFamily: DeltaFamily? { layer.family }

    package func canReuseScratch(of previous: any Matcher) -> Bool { layer.family.includes(previous) }
}

/// A delta snapshot of `compiled`. Unchecked Sendable: `hot` points into `layer`, immutable and kept alive by it.
package struct LayeredCompiledMatcher: LayeredSnapshot, @unchecked Sendable {
    package let base: CompiledMatcher
    package let layer: DeltaLayer
    package let hot: UnsafePointer<DeltaLayer.View>

    package init(base: CompiledMatcher, layer: DeltaLayer) {
        self.base = base
        self.layer = layer
        hot = layer.hot
    }

    // Here, not in the protocol extension: there `base` and `hot` are read through the protocol's
    // getters, which copied (and retained) the base per event.
    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        DeltaLayer.View.stampMasked(hot, scratch)
        base.matchBegun(i, in: events, scratch: scratch)
        DeltaLayer.View.finish(hot, i, in: events, scratch: scratch)
    }
}

/// A delta snapshot of `predicate-index`. Unchecked Sendable, as `LayeredCompiledMatcher`.
package struct LayeredPredicateIndexMatcher: LayeredSnapshot, @unchecked Sendable {
    package let base: PredicateIndexMatcher
    package let layer: DeltaLayer
    package let hot: UnsafePointer<DeltaLayer.View>

    package init(base: PredicateIndexMatcher, layer: DeltaLayer) {
        self.base = base
        self.layer = layer
        hot = layer.hot
    }

    // Here, not in the protocol extension: there `base` and `hot` are read through the protocol's
    // getters, which copied (and retained) the base per event.
    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        DeltaLayer.View.stampMasked(hot, scratch)
        base.matchBegun(i, in: events, scratch: scratch)
        DeltaLayer.View.finish(hot, i, in: events, scratch: scratch)
    }
}
