/// Triggers bucketed by (event kind, interned key): the index every fast strategy starts from.
/// A bucket holds one entry per (trigger, condition) that can fire for that kind and key.
public struct TriggerBuckets: Sendable {
    /// One condition of one trigger.
    public struct Entry: Sendable {
        public var trigger: Int32
        public var condition: Int32
    }

    /// All entries, grouped by bucket; bucket `b` is `entries[bucketStart[b]..<bucketStart[b + 1]]`.
    public let entries: [Entry]
    public let bucketStart: [Int32]
    /// Bucket of a custom event name id, -1 when none (indexed by symbol id, corpus symbols only).
    public let customByName: [Int32]
    public let purchaseByProduct: [Int32]
    public let pushByCampaign: [Int32]
    public let anyPurchase: Int32
    public let anyPush: Int32
    public let sessionStart: Int32

    public init(_ set: TriggerSet, vocabulary: Vocabulary) {
        let n = Int(vocabulary.corpusCount)
        var custom = [[Entry]](repeating: [], count: n)
        var purchase = [[Entry]](repeating: [], count: n)
        var push = [[Entry]](repeating: [], count: n)
        var anyPurchaseEntries: [Entry] = [], anyPushEntries: [Entry] = [], sessionEntries: [Entry] = []
        let symbols = vocabulary.symbols
        for (t, trigger) in set.triggers.enumerated() {
            for (c, condition) in trigger.conditions.enumerated() {
                let entry = Entry(trigger: Int32(t), condition: Int32(c))
                switch condition {
                case .customEvent(let name, _): custom[Int(symbols.lookup(name)!)].append(entry)
                case .purchase(let product?, _): purchase[Int(symbols.lookup(product)!)].append(entry)
                case .purchase(nil, _): anyPurchaseEntries.append(entry)
                case .pushClick(let campaign?, _): push[Int(symbols.lookup(campaign)!)].append(entry)
                case .pushClick(nil, _): anyPushEntries.append(entry)
                case .sessionStart: sessionEntries.append(entry)
                }
            }
        }
        var entries: [Entry] = []
        var starts: [Int32] = [0]
        func addBucket(_ list: [Entry]) -> Int32 {
            guard !list.isEmpty else { return -1 }
            entries.append(contentsOf: list)
            starts.append(Int32(entries.count))
            return Int32(starts.count - 2)
        }
        customByName = custom.map(addBucket)
        purchaseByProduct = purchase.map(addBucket)
        pushByCampaign = push.map(addBucket)
        anyPurchase = addBucket(anyPurchaseEntries)
        anyPush = addBucket(anyPushEntries)
        sessionStart = addBucket(sessionEntries)
        self.entries = entries
        bucketStart = starts
    }

    public var bucketCount: Int { bucketStart.count - 1 }

    /// The (up to two) buckets event `i` must look at: its key's bucket and the "any" bucket of its kind.
    @inlinable @inline(__always)
    public func buckets(of i: Int, in events: EventView) -> (Int32, Int32) {
        let key = events.keys[i]
        let known = key >= 0 && key < events.corpusSymbolCount
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
    public func range(of bucket: Int32) -> Range<Int> {
        Int(bucketStart[Int(bucket)])..<Int(bucketStart[Int(bucket) + 1])
    }
}
