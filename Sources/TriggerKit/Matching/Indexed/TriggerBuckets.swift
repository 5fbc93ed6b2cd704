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
    /// Keys below this are the vocabulary's (the lookup tables' length). Not the events' corpus count:
    /// a matcher a delta writer builds knows strings the events were interned without.
    @usableFromInline package let symbolCount: Int32

    @usableFromInline package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        // One pass files each (trigger, condition) under a bucket key; a counting sort then lays the
        // buckets out contiguously in key order, keeping trigger order within a bucket. (Arrays of
        // arrays per symbol made every rebuild allocate once per non-empty bucket.)
        let n = Int(vocabulary.corpusCount)
        symbolCount = Int32(n)
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
        let known = key >= 0 && key < symbolCount
        switch events.kinds[i] {
        case EventKindCode.customEvent.rawValue:
            return (known ? customByName[Int(key)] : -1, -1)
        case EventKindCode.purchase.rawValue:
            return (known ? purchaseByProduct[Int(key)] : -1, anyPurchase)
        case EventKindCode.pushClick.rawValue:
            return (known ? pushByCampaign[Int(key)] : -1, anyPush)
        default:
            return (sessionStart, -1)
        }
    }

    @inlinable @inline(__always)
    package func range(of bucket: Int32) -> Range<Int> {
        Int(bucketStart[Int(bucket)])..<Int(bucketStart[Int(bucket) + 1])
    }
}
