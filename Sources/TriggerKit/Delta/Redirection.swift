/// Turns a delta writer's history into a base whose lookups send every touched bucket to rebuilt
/// spans (`RedirectedSpans`, docs/deltas.md): the snapshot then matches as a fresh build does, with no
/// layer to pay per event, at the cost of copying the touched buckets' live entries per delta.
enum Redirection {
    /// The lookups and spans that redirect every bucket the history touched in `base`, or nil when that
    /// is not cheap or not possible, and the delta is layered instead:
    /// - a touched bucket is indexed or counted (its index would have to be rebuilt);
    /// - a touched any-purchase or any-push bucket is copied behind other spans (all of them would);
    /// - the touched buckets hold more than `limit` live conditions.
    ///
    /// `dead`: a bit per base trigger removed or replaced since the base. `pending`: the triggers added
    /// or replaced since it, in rank order, with the scratch slot each reports.
    static func redirect<Base: LayerableMatcher>(_ base: Base, baseSet: TriggerSet, dead: [UInt64],
                                                 pending: [(slot: Int32, trigger: Trigger)], symbols: SymbolTable,
                                                 limit: Int) -> (buckets: TriggerBuckets, spans: RedirectedSpans)? {
        let buckets = base.buckets, merged = base.mergedSpans, spans = base.spans
        // Every bucket a masked base trigger or a pending trigger is filed under, in first-touch order
        // (a few dozen: linear searches beat hashing here), and the pending conditions filed under each.
        // Each key is judged as it is met, so a delta that must be layered gives up early.
        var touched: [UInt64] = []
        var pendingConditions: [(key: UInt64, pending: Int32, condition: Int32)] = []
        var total = 0
        func touch(_ key: UInt64) -> Bool {
            guard !touched.contains(key) else { return true }
            touched.append(key)
            let b = buckets.bucket(ofKey: key)
            if b >= 0, !base.scans(bucket: b) { return false }
            if merged, Self.isAny(key) { return false }
            if b >= 0 { total += spans.range(of: b).count }
            if b < 0, merged, let companion = Self.companion(of: key, buckets), companion >= 0 {
                // A new product's (campaign's) span copies its any-purchase (any-push) span, which must be scanned too.
                guard base.scans(bucket: companion) else { return false }
                total += spans.range(of: companion).count
            }
            return total <= limit
        }
        for w in dead.indices where dead[w] != 0 {
            var bits = dead[w]
            while bits != 0 {
                for c in baseSet.triggers[w * 64 + bits.trailingZeroBitCount].conditions where !touch(OverlaySpans.key(of: c, symbols)) {
                    return nil
                }
                bits &= bits &- 1
            }
        }
        for p in pending.indices {
            let conditions = pending[p].trigger.conditions
            for c in conditions.indices {
                let key = OverlaySpans.key(of: conditions[c], symbols)
                guard touch(key) else { return nil }
                pendingConditions.append((key, Int32(p), Int32(c)))
            }
        }
        guard total + pendingConditions.count <= limit else { return nil }
        // The pending triggers compiled alone; each touched bucket's span is then the base's live
        // entries (evaluated against the base's program) followed by the pending ones.
        let pendingProgram = PredicateProgram(
            TriggerSet(triggers: pending.map(\.trigger), minimumTriggerInterval: baseSet.minimumTriggerInterval,
                       actionCategories: baseSet.actionCategories),
            vocabulary: Vocabulary(symbols: symbols), memoize: false)
        var entries = FrozenBuffer<PredicateProgram.Entry>.Builder(capacity: total + pendingConditions.count + 1)
        var start = FrozenBuffer<Int32>.Builder(capacity: touched.count + 1), split = FrozenBuffer<Int32>.Builder(capacity: touched.count)
        start.append(0)
        var moves: [(key: UInt64, bucket: Int32)] = []
        moves.reserveCapacity(touched.count)
        let first = Int32(buckets.bucketCount)
        var fromPending: [PredicateProgram.Entry] = []
        for key in touched {
            let before = entries.count
            fromPending.removeAll(keepingCapacity: true)
            for (k, p, c) in pendingConditions where k == key {
                guard var entry = pendingProgram.entry(TriggerBuckets.Entry(trigger: p, condition: c)) else { continue }
                entry.trigger = pending[Int(p)].slot
                fromPending.append(entry)
            }
            let b = buckets.bucket(ofKey: key)
            if b >= 0 {
                // A merged product (campaign) span already ends with its any-purchase (any-push) copy.
                dead.withUnsafeBufferPointer { bits in
                    for k in spans.range(of: b) {
                        let t = Int(spans.entries[k].trigger)
                        if bits[t >> 6] & (1 &<< UInt64(t & 63)) == 0 { entries.append(spans.entries[k]) }
                    }
                }
            } else if !fromPending.isEmpty, merged, let companion = Self.companion(of: key, buckets), companion >= 0 {
                for k in spans.range(of: companion) { entries.append(spans.entries[k]) }
            }
            let middle = entries.count
            for e in fromPending { entries.append(e) }
            if entries.count == before {
                moves.append((key, -1))
            } else {
                moves.append((key, first + Int32(split.count)))
                split.append(Int32(middle))
                start.append(Int32(entries.count))
            }
        }
        // Not shrunk: a snapshot lives a few milliseconds, and the shrinking copy cost more than the room.
        let redirected = RedirectedSpans(baseProgram: base.program, pendingProgram: pendingProgram, entries: entries.freeze(shrinking: false),
                                        start: start.freeze(), split: split.freeze(), firstBucket: first)
        return (buckets.redirecting(moves), redirected)
    }

    /// Whether `key` is the any-purchase or any-push bucket's.
    static func isAny(_ key: UInt64) -> Bool {
        let kind = OverlaySpans.kind(of: key)
        return OverlaySpans.id(of: key) < 0
            && (kind == EventKindCode.purchase.rawValue || kind == EventKindCode.pushClick.rawValue)
    }

    /// The bucket every event of `key` also looks at (any-purchase for a product, any-push for a
    /// campaign), or nil.
    static func companion(of key: UInt64, _ buckets: TriggerBuckets) -> Int32? {
        guard OverlaySpans.id(of: key) >= 0 else { return nil }
        switch OverlaySpans.kind(of: key) {
        case EventKindCode.purchase.rawValue: return buckets.anyPurchase
        case EventKindCode.pushClick.rawValue: return buckets.anyPush
        default: return nil
        }
    }
}
