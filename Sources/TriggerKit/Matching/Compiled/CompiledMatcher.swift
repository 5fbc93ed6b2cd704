import CPrefetch

/// `compiled` (docs/strategies.md): `indexed` buckets plus filters compiled once into a flat `PredicateProgram`.
package struct CompiledMatcher: Matcher {
    package static let strategyName = "compiled"
    /// The set built from, or a redirected delta snapshot's history.
    let origin: SetOrigin
    package var triggerSet: TriggerSet { origin.triggerSet }
    package let buckets: TriggerBuckets
    package let program: PredicateProgram
    /// One span of compiled entries per bucket, the any-purchase (any-push) bucket copied behind each
    /// product's (campaign's) unless that would double them (`PredicateProgram.spans`).
    package let spans: PredicateProgram.Spans
    /// Whether each span holds its companion bucket's entries (else a purchase scans two spans).
    package var merged: Bool { spans.merged }
    /// Buckets numbered from here on are `redirected`'s: a delta snapshot's rebuilt buckets (none in a build).
    let ownBuckets: Int32
    let redirected: RedirectedSpans?

    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        origin = SetOrigin(built: set, delta: nil)
        buckets = TriggerBuckets(set, vocabulary: vocabulary)
        program = PredicateProgram(set, vocabulary: vocabulary)
        spans = program.spans(for: buckets)
        ownBuckets = Int32(buckets.bucketCount)
        redirected = nil
    }

    /// `base` whose lookups are `buckets`, sending some keys to `redirected`'s spans (a delta snapshot's).
    package init(_ base: CompiledMatcher, buckets: TriggerBuckets, redirected: RedirectedSpans, layer: DeltaLayer) {
        origin = SetOrigin(built: base.origin.built, delta: layer)
        self.buckets = buckets
        program = base.program
        spans = base.spans
        ownBuckets = base.ownBuckets
        self.redirected = redirected
    }

    package func makeScratch(for events: EventColumns) -> MatchScratch {
        origin.makeScratch(program, for: events, listCapacity: 0, markCapacity: 0)
    }

    package func canReuseScratch(of previous: any Matcher) -> Bool {
        origin.canReuseScratch(of: previous, previousOrigin: (previous as? Self)?.origin)
    }

    package func match(_ i: Int, in events: EventView, scratch: MatchScratch) {
        scratch.begin()
        matchBegun(i, in: events, scratch: scratch)
    }

    /// `match` after `scratch.begin()` (a delta snapshot stamps its masked triggers in between).
    @inline(__always)
    package func matchBegun(_ i: Int, in events: EventView, scratch: MatchScratch) {
        events.prefetchProperties(of: i &+ EventView.prefetchDistance)
        let (a, b) = buckets.buckets(of: i, in: events)
        // One scan per event when the spans are merged: a product's span already holds any-purchase.
        // (A second scan call site was emitted out of line, with its own setup, for every purchase.)
        let first = a >= 0 ? a : b
        guard first >= 0 else { return }
        scanBuckets(a, b, first, i, events, scratch)
    }

    /// Out of line: four events in five on braze-typical-200 have no bucket, and with the scan inlined
    /// each of them paid the scan's frame (six saved registers, 0x168 bytes of stack) to return at once.
    @inline(never)
    func scanBuckets(_ a: Int32, _ b: Int32, _ first: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        scan(first, i, events, scratch)
        if !spans.merged, a >= 0, b >= 0 { scan(b, i, events, scratch) }
    }

    @inline(__always)
    func scan(_ bucket: Int32, _ i: Int, _ events: EventView, _ scratch: MatchScratch) {
        if bucket < ownBuckets {
            program.scan(spans.entries, spans.range(of: bucket), i, events, scratch)
        } else {
            redirected.unsafelyUnwrapped.scan(bucket, i, events, scratch)
        }
    }
}
