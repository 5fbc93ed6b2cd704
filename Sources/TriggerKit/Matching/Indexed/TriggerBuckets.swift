/// Triggers bucketed by (event kind, interned key): the index every fast strategy starts from.
/// A bucket holds one entry per (trigger, condition) that can fire for that kind and key.
@usableFromInline package struct TriggerBuckets: Sendable {
    /// One condition of one trigger.
    @usableFromInline package struct Entry: Sendable {
        @usableFromInline package var trigger: Int32
        @usableFromInline package var condition: Int32
    }

    /// All entries, grouped by bucket; bucket `b` is `entries[bucketStart[b]..<bucketStart[b + 1]]`.
    @usableFromInline package let entries: [Entry]
    @usableFromInline package let bucketStart: [Int32]
    /// Bucket of a custom event name id, -1 when none (indexed by symbol id, corpus symbols only).
    @usableFromInline package let customByName: [Int32]
    @usableFromInline package let purchaseByProduct: [Int32]
    @usableFromInline package let pushByCampaign: [Int32]
    @usableFromInline package let anyPurchase: Int32
    @usableFromInline package let anyPush: Int32
    @usableFromInline package let sessionStart: Int32
    /// Each lookup table's length: keys at or past it have no bucket of that kind. The vocabulary's
    /// count in a build (not the events' corpus count: a matcher a delta writer builds knows strings
    /// the events were interned without); a redirected snapshot widens only the tables it changes.
    @usableFromInline package let customCount: Int32
    @usableFromInline package let purchaseCount: Int32
    @usableFromInline package let pushCount: Int32

    @usableFromInline package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        // One pass files each (trigger, condition) under a bucket key; a counting sort then lays the
        // buckets out contiguously in key order, keeping trigger order within a bucket. (Arrays of
        // arrays per symbol made every rebuild allocate once per non-empty bucket.)
        let n = Int(vocabulary.corpusCount)
        (customCount, purchaseCount, pushCount) = (Int32(n), Int32(n), Int32(n))
        let symbols = SymbolTable.Resolver(vocabulary.symbols)
        // Keys: custom 0..<n, purchase n..<2n, push 2n..<3n, then any-purchase, any-push, session start.
        let anyPurchaseKey = 3 * n, anyPushKey = 3 * n + 1, sessionKey = 3 * n + 2, keyCount = 3 * n + 3
        var keyed: [(key: Int32, entry: Entry)] = []
        keyed.reserveCapacity(set.triggers.count)
        var sizes = [Int32](repeating: 0, count: keyCount)
        for t in set.triggers.indices {
            let conditions = set.triggers[t].conditions
            for c in conditions.indices {
                let key: Int
                switch conditions[c] {
                case .customEvent(let name, _): key = Int(symbols.lookup(name)!)
                case .purchase(let product?, _): key = n + Int(symbols.lookup(product)!)
                case .purchase(nil, _): key = anyPurchaseKey
                case .pushClick(let campaign?, _): key = 2 * n + Int(symbols.lookup(campaign)!)
                case .pushClick(nil, _): key = anyPushKey
                case .sessionStart: key = sessionKey
                }
                keyed.append((Int32(key), Entry(trigger: Int32(t), condition: Int32(c))))
                sizes[key] += 1
            }
        }
        // Bucket numbers in key order, over the non-empty keys only.
        var bucketOfKey = [Int32](repeating: -1, count: keyCount)
        var starts: [Int32] = [0]
        var firstOfKey = [Int32](repeating: 0, count: keyCount)
        var total: Int32 = 0
        for key in 0..<keyCount where sizes[key] > 0 {
            bucketOfKey[key] = Int32(starts.count - 1)
            firstOfKey[key] = total
            total += sizes[key]
            starts.append(total)
        }
        var entries = [Entry](repeating: Entry(trigger: 0, condition: 0), count: Int(total))
        for (key, entry) in keyed {
            entries[Int(firstOfKey[Int(key)])] = entry
            firstOfKey[Int(key)] += 1
        }
        customByName = Array(bucketOfKey[0..<n])
        purchaseByProduct = Array(bucketOfKey[n..<2 * n])
        pushByCampaign = Array(bucketOfKey[2 * n..<3 * n])
        anyPurchase = bucketOfKey[anyPurchaseKey]
        anyPush = bucketOfKey[anyPushKey]
        sessionStart = bucketOfKey[sessionKey]
        self.entries = entries
        bucketStart = starts
    }

    private init(copying other: TriggerBuckets, customByName: [Int32], purchaseByProduct: [Int32], pushByCampaign: [Int32],
                 anyPurchase: Int32, anyPush: Int32, sessionStart: Int32) {
        entries = other.entries
        bucketStart = other.bucketStart
        self.customByName = customByName
        self.purchaseByProduct = purchaseByProduct
        self.pushByCampaign = pushByCampaign
        self.anyPurchase = anyPurchase
        self.anyPush = anyPush
        self.sessionStart = sessionStart
        (customCount, purchaseCount, pushCount) = (Int32(customByName.count), Int32(purchaseByProduct.count), Int32(pushByCampaign.count))
    }

    /// The bucket of a span key (`OverlaySpans.key(kind:id:)`), -1 when it has none.
    package func bucket(ofKey key: UInt64) -> Int32 {
        let id = OverlaySpans.id(of: key)
        switch OverlaySpans.kind(of: key) {
        case EventKindCode.customEvent.rawValue: return id >= 0 && id < customCount ? customByName[Int(id)] : -1
        case EventKindCode.purchase.rawValue: return id < 0 ? anyPurchase : id < purchaseCount ? purchaseByProduct[Int(id)] : -1
        case EventKindCode.pushClick.rawValue: return id < 0 ? anyPush : id < pushCount ? pushByCampaign[Int(id)] : -1
        default: return sessionStart
        }
    }

    /// These lookups with each run key of `moves` sent to its bucket (-1: none). Only the tables of
    /// kinds that move are copied, each only as wide as a key it sends to a bucket needs (a wider table
    /// makes events with ids only the events know load a -1 instead of failing the bound test).
    /// `entries` and `bucketStart` stay the original's: they describe its buckets, not the new ones.
    package func redirecting(_ moves: [(key: UInt64, bucket: Int32)]) -> TriggerBuckets {
        func moved(_ table: [Int32], _ kind: EventKindCode) -> [Int32] {
            var width = table.count, touched = false
            for (key, bucket) in moves where OverlaySpans.kind(of: key) == kind.rawValue {
                let id = Int(OverlaySpans.id(of: key))
                // A key past the table that goes nowhere changes nothing.
                guard id >= 0, id < table.count || bucket >= 0 else { continue }
                touched = true
                if bucket >= 0 { width = max(width, id + 1) }
            }
            guard touched else { return table }
            var copy = [Int32](repeating: -1, count: width)
            copy.withUnsafeMutableBufferPointer { to in table.withUnsafeBufferPointer { from in _ = to.initialize(fromContentsOf: from) } }
            for (key, bucket) in moves where OverlaySpans.kind(of: key) == kind.rawValue {
                let id = Int(OverlaySpans.id(of: key))
                if id >= 0, id < width { copy[id] = bucket }
            }
            return copy
        }
        var anyPurchase = anyPurchase, anyPush = anyPush, sessionStart = sessionStart
        for (key, bucket) in moves where OverlaySpans.id(of: key) < 0 {
            switch OverlaySpans.kind(of: key) {
            case EventKindCode.purchase.rawValue: anyPurchase = bucket
            case EventKindCode.pushClick.rawValue: anyPush = bucket
            default: sessionStart = bucket
            }
        }
        return TriggerBuckets(copying: self, customByName: moved(customByName, .customEvent), purchaseByProduct: moved(purchaseByProduct, .purchase),
                              pushByCampaign: moved(pushByCampaign, .pushClick), anyPurchase: anyPurchase, anyPush: anyPush,
                              sessionStart: sessionStart)
    }

    @usableFromInline package var bucketCount: Int { bucketStart.count - 1 }

    /// For each bucket, the bucket every event that looks at it also looks at (the second of
    /// `buckets(of:)`): any-purchase for a product's bucket, any-push for a campaign's; else -1.
    @usableFromInline package func companions() -> [Int32] {
        var companion = [Int32](repeating: -1, count: bucketCount)
        if anyPurchase >= 0 { for b in purchaseByProduct where b >= 0 { companion[Int(b)] = anyPurchase } }
        if anyPush >= 0 { for b in pushByCampaign where b >= 0 { companion[Int(b)] = anyPush } }
        return companion
    }

    /// The (up to two) buckets event `i` must look at: its key's bucket and the "any" bucket of its kind.
    @inlinable @inline(__always)
    package func buckets(of i: Int, in events: EventView) -> (Int32, Int32) {
        let key = events.keys[i]
        switch events.kinds[i] {
        case EventKindCode.customEvent.rawValue:
            return (key >= 0 && key < customCount ? customByName[Int(key)] : -1, -1)
        case EventKindCode.purchase.rawValue:
            return (key >= 0 && key < purchaseCount ? purchaseByProduct[Int(key)] : -1, anyPurchase)
        case EventKindCode.pushClick.rawValue:
            return (key >= 0 && key < pushCount ? pushByCampaign[Int(key)] : -1, anyPush)
        default:
            return (sessionStart, -1)
        }
    }

    @inlinable @inline(__always)
    package func range(of bucket: Int32) -> Range<Int> {
        Int(bucketStart[Int(bucket)])..<Int(bucketStart[Int(bucket) + 1])
    }
}
