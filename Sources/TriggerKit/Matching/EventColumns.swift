import CPrefetch

/// Compact property value tags of `EventColumns`.
public enum ValueTag: UInt8, Sendable {
    case int = 0, double, string, bool, date, null

    /// The filter type a value of this tag satisfies.
    @inlinable
    public func satisfies(_ type: PropertyType) -> Bool {
        switch type {
        case .number: return self == .int || self == .double
        case .string: return self == .string
        case .boolean: return self == .bool
        case .date: return self == .date
        }
    }
}

/// Event kinds as stored in `EventColumns.kinds`.
public enum EventKindCode: UInt8, Sendable {
    case customEvent = 0, purchase, sessionStart, pushClick
}

/// Events as struct-of-arrays for replay: a replay loop walks memory linearly and does no reference
/// counting. Each event is a kind, an interned key (name / product / campaign id), an action id, a
/// time, and a slice of the shared property columns (key id, tag, 64-bit payload), sorted by key id.
public struct EventColumns: Sendable {
    public private(set) var symbols: SymbolTable
    public let corpusSymbolCount: Int32
    public private(set) var kinds: [UInt8] = []
    /// Name id (custom event), product id (purchase), campaign id (push, -1 when none), -1 (session start).
    public private(set) var keys: [Int32] = []
    /// Tapped action id of a push click, else -1.
    public private(set) var actions: [Int32] = []
    public private(set) var times: [Double] = []
    /// Event `i`'s properties are `propertyStart[i]..<propertyStart[i + 1]`.
    public private(set) var propertyStart: [Int32] = [0]
    public private(set) var propertyKeys: [Int32] = []
    public private(set) var propertyTags: [UInt8] = []
    /// Int64 bits, Double bits (double and date), a string id, or 0/1 for booleans.
    public private(set) var propertyBits: [UInt64] = []

    public init(vocabulary: Vocabulary) {
        symbols = vocabulary.symbols
        corpusSymbolCount = vocabulary.corpusCount
    }

    public var count: Int { kinds.count }

    public mutating func reserveCapacity(events: Int, properties: Int) {
        kinds.reserveCapacity(events)
        keys.reserveCapacity(events)
        actions.reserveCapacity(events)
        times.reserveCapacity(events)
        propertyStart.reserveCapacity(events + 1)
        propertyKeys.reserveCapacity(properties)
        propertyTags.reserveCapacity(properties)
        propertyBits.reserveCapacity(properties)
    }

    /// Interns a string into the buffer's table (for generators that encode events directly).
    public mutating func intern(_ s: String) -> Int32 { symbols.intern(s) }

    /// Appends an already-encoded event; `properties` must be sorted by key id with unique keys.
    public mutating func appendEncoded(kind: EventKindCode, key: Int32, action: Int32, time: Double,
                                       properties: UnsafeBufferPointer<(key: Int32, tag: ValueTag, bits: UInt64)>) {
        kinds.append(kind.rawValue)
        keys.append(key)
        actions.append(action)
        times.append(time)
        for p in properties {
            propertyKeys.append(p.key)
            propertyTags.append(p.tag.rawValue)
            propertyBits.append(p.bits)
        }
        propertyStart.append(Int32(propertyKeys.count))
    }

    /// Appends one decoded event, interning its strings (load time, not the hot path).
    public mutating func append(_ event: Event) {
        var action: Int32 = -1
        switch event.kind {
        case .customEvent(let name):
            kinds.append(EventKindCode.customEvent.rawValue)
            keys.append(symbols.intern(name))
        case .purchase(let product):
            kinds.append(EventKindCode.purchase.rawValue)
            keys.append(symbols.intern(product))
        case .sessionStart:
            kinds.append(EventKindCode.sessionStart.rawValue)
            keys.append(-1)
        case .pushClick(let campaign, let act):
            kinds.append(EventKindCode.pushClick.rawValue)
            keys.append(campaign.map { symbols.intern($0) } ?? -1)
            action = act.map { symbols.intern($0) } ?? -1
        }
        actions.append(action)
        times.append(event.time)
        var props: [(Int32, UInt8, UInt64)] = event.properties.map { key, value in
            let k = symbols.intern(key)
            switch value {
            case .int(let i): return (k, ValueTag.int.rawValue, UInt64(bitPattern: i))
            case .double(let d): return (k, ValueTag.double.rawValue, d.bitPattern)
            case .string(let s): return (k, ValueTag.string.rawValue, UInt64(UInt32(bitPattern: symbols.intern(s))))
            case .bool(let b): return (k, ValueTag.bool.rawValue, b ? 1 : 0)
            case .date(let d): return (k, ValueTag.date.rawValue, d.bitPattern)
            case .null: return (k, ValueTag.null.rawValue, 0)
            }
        }
        props.sort { $0.0 < $1.0 }
        for (k, t, b) in props {
            propertyKeys.append(k)
            propertyTags.append(t)
            propertyBits.append(b)
        }
        propertyStart.append(Int32(propertyKeys.count))
    }

    /// Rebuilds the decoded event `i` (for `reference` and for output; allocates).
    public func event(at i: Int) -> Event { withView { $0.event(at: i) } }

    /// Runs `body` with unsafe views of the columns: the form the hot path reads.
    public func withView<R>(_ body: (EventView) throws -> R) rethrows -> R {
        try kinds.withUnsafeBufferPointer { kinds in
            try keys.withUnsafeBufferPointer { keys in
                try actions.withUnsafeBufferPointer { actions in
                    try times.withUnsafeBufferPointer { times in
                        try propertyStart.withUnsafeBufferPointer { start in
                            try propertyKeys.withUnsafeBufferPointer { pk in
                                try propertyTags.withUnsafeBufferPointer { pt in
                                    try propertyBits.withUnsafeBufferPointer { pb in
                                        try symbols.strings.withUnsafeBufferPointer { strings in
                                            try body(EventView(
                                                kinds: kinds, keys: keys, actions: actions, times: times, propertyStart: start,
                                                propertyKeys: pk, propertyTags: pt, propertyBits: pb, strings: strings,
                                                corpusSymbolCount: corpusSymbolCount))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A borrowed, unsafe view of `EventColumns` for the hot path: plain loads, no reference counting.
public struct EventView {
    public let kinds: UnsafeBufferPointer<UInt8>
    public let keys: UnsafeBufferPointer<Int32>
    public let actions: UnsafeBufferPointer<Int32>
    public let times: UnsafeBufferPointer<Double>
    public let propertyStart: UnsafeBufferPointer<Int32>
    public let propertyKeys: UnsafeBufferPointer<Int32>
    public let propertyTags: UnsafeBufferPointer<UInt8>
    public let propertyBits: UnsafeBufferPointer<UInt64>
    /// The symbol table's strings, by id.
    public let strings: UnsafeBufferPointer<String>
    public let corpusSymbolCount: Int32

    public var count: Int { kinds.count }

    /// The position of property `key` of event `i` in the property columns, or -1 when absent.
    @inlinable @inline(__always)
    public func property(_ key: Int32, of i: Int) -> Int {
        var p = Int(propertyStart[i])
        let end = Int(propertyStart[i + 1])
        while p < end {
            let k = propertyKeys[p]
            if k == key { return p }
            if k > key { return -1 }
            p += 1
        }
        return -1
    }
}

extension EventView {
    /// How many events ahead a replay loop prefetches property payloads.
    public static let prefetchDistance = 8

    /// Starts loading event `i`'s property keys, tags and payloads into cache (nothing when `i` is past
    /// the end). A matcher reads the properties of only the events that have candidates: that sparse
    /// read missed the cache on most events of a multi-million-event replay.
    @inlinable @inline(__always)
    public func prefetchProperties(of i: Int) {
        guard i < count else { return }
        let p = Int(propertyStart[i])
        Self.prefetch(propertyKeys, p)
        Self.prefetch(propertyBits, p)
        Self.prefetch(propertyTags, p)
    }

    /// Prefetches element `p` of `column` by address arithmetic on the (possibly nil) base: a prefetch
    /// never faults, and `baseAddress!` cost a test and a branch per column on every event.
    @inlinable @inline(__always)
    static func prefetch<T>(_ column: UnsafeBufferPointer<T>, _ p: Int) {
        trigger_bench_prefetch_address(UInt(bitPattern: Int(bitPattern: column.baseAddress) &+ p &* MemoryLayout<T>.stride))
    }

    /// The property value at position `p` of the property columns, as a decoded value.
    public func value(at p: Int) -> PropertyValue {
        let bits = propertyBits[p]
        switch ValueTag(rawValue: propertyTags[p])! {
        case .int: return .int(Int64(bitPattern: bits))
        case .double: return .double(Double(bitPattern: bits))
        case .string: return .string(strings[Int(bits)])
        case .bool: return .bool(bits != 0)
        case .date: return .date(Double(bitPattern: bits))
        case .null: return .null
        }
    }

    /// Rebuilds the decoded event `i` (for `reference` and for output; allocates).
    public func event(at i: Int) -> Event {
        let key = Int(keys[i])
        let kind: Event.Kind
        switch EventKindCode(rawValue: kinds[i])! {
        case .customEvent: kind = .customEvent(name: strings[key])
        case .purchase: kind = .purchase(productID: strings[key])
        case .sessionStart: kind = .sessionStart
        case .pushClick:
            let action = Int(actions[i])
            kind = .pushClick(campaignID: key >= 0 ? strings[key] : nil, actionID: action >= 0 ? strings[action] : nil)
        }
        var props: [String: PropertyValue] = [:]
        for p in Int(propertyStart[i])..<Int(propertyStart[i + 1]) {
            props[strings[Int(propertyKeys[p])]] = value(at: p)
        }
        return Event(time: times[i], kind: kind, properties: props)
    }
}
