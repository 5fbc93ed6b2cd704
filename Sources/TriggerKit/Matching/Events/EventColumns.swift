/// Events as struct-of-arrays for replay: a replay loop walks memory linearly and does no reference
/// counting. Each event is a kind, an interned key (name / product / campaign id), an action id, a
/// time, and a slice of the shared property columns (key id, tag, 64-bit payload), sorted by key id.
public struct EventColumns: Sendable {
    public private(set) var symbols: SymbolTable
    package let corpusSymbolCount: Int32
    @usableFromInline package private(set) var kinds = EventColumn<UInt8>()
    /// Name id (custom event), product id (purchase), campaign id (push, -1 when none), -1 (session start).
    @usableFromInline package private(set) var keys = EventColumn<Int32>()
    /// Tapped action id of a push click, else -1.
    @usableFromInline package private(set) var actions = EventColumn<Int32>()
    @usableFromInline package private(set) var times = EventColumn<Double>()
    /// Event `i`'s properties are `propertyStart[i]..<propertyStart[i + 1]`.
    @usableFromInline package private(set) var propertyStart = EventColumn<Int32>()
    @usableFromInline package private(set) var propertyKeys = EventColumn<Int32>()
    @usableFromInline package private(set) var propertyTags = EventColumn<UInt8>()
    /// Int64 bits, Double bits (double and date), a string id, or 0/1 for booleans.
    @usableFromInline package private(set) var propertyBits = EventColumn<UInt64>()

    public init(vocabulary: Vocabulary) {
        symbols = vocabulary.symbols
        corpusSymbolCount = vocabulary.corpusCount
        propertyStart.append(0)
    }

    public var count: Int { kinds.count }

    package mutating func reserveCapacity(events: Int, properties: Int) {
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
    package mutating func intern(_ s: String) -> Int32 { symbols.intern(s) }

    /// Appends an already-encoded event; `properties` must be sorted by key id with unique keys.
    package mutating func appendEncoded(kind: EventKindCode, key: Int32, action: Int32, time: Double,
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
        try withExtendedLifetime(self) {
            try symbols.strings.withUnsafeBufferPointer { strings in
                try symbols.text.withUnsafeBufferPointer { text in
                    try symbols.textStart.withUnsafeBufferPointer { textStart in
                        // The arena is never empty in practice; a one-byte stand-in keeps the pointer non-nil.
                        let spare: UInt8 = 0
                        return try withUnsafePointer(to: spare) { spare in
                            try withUnsafePointer(to: (bytes: text.baseAddress ?? spare, start: textStart.baseAddress!, corpusSymbols: corpusSymbolCount)) { textView in
                                try body(EventView(
                                    kinds: kinds.buffer, keys: keys.buffer, actions: actions.buffer, times: times.buffer,
                                    propertyStart: propertyStart.buffer, propertyKeys: propertyKeys.buffer, propertyTags: propertyTags.buffer,
                                    propertyBits: propertyBits.buffer, strings: strings, text: textView))
                            }
                        }
                    }
                }
            }
        }
    }
}
