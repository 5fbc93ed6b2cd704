import CPrefetch

/// A borrowed, unsafe view of `EventColumns` for the hot path: plain loads, no reference counting.
public struct EventView {
    @usableFromInline package let kinds: UnsafeBufferPointer<UInt8>
    @usableFromInline package let keys: UnsafeBufferPointer<Int32>
    @usableFromInline package let actions: UnsafeBufferPointer<Int32>
    @usableFromInline package let times: UnsafeBufferPointer<Double>
    @usableFromInline package let propertyStart: UnsafeBufferPointer<Int32>
    @usableFromInline package let propertyKeys: UnsafeBufferPointer<Int32>
    @usableFromInline package let propertyTags: UnsafeBufferPointer<UInt8>
    @usableFromInline package let propertyBits: UnsafeBufferPointer<UInt64>
    /// The symbol table's strings, by id.
    @usableFromInline package let strings: UnsafeBufferPointer<String>
    /// The same strings' UTF-8 bytes (`SymbolTable.text` and `textStart`) and the corpus's string
    /// count, behind one pointer: the view is passed by value to every `match`.
    @usableFromInline package let text: UnsafePointer<(bytes: UnsafePointer<UInt8>, start: UnsafePointer<Int>, corpusSymbols: Int32)>
    @usableFromInline package var corpusSymbolCount: Int32 { text.pointee.corpusSymbols }

    public var count: Int { kinds.count }

    /// String `id`'s UTF-8 bytes, borrowed.
    @inlinable @inline(__always)
    package func utf8(_ id: Int) -> (start: UnsafePointer<UInt8>, count: Int) {
        let from = text.pointee.start[id], to = text.pointee.start[id &+ 1]
        return (text.pointee.bytes + from, to &- from)
    }

    /// The position of property `key` of event `i` in the property columns, or -1 when absent.
    @inlinable @inline(__always)
    package func property(_ key: Int32, of i: Int) -> Int {
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
    package static let prefetchDistance = 8

    /// Starts loading event `i`'s property keys, tags and payloads into cache (nothing when `i` is past
    /// the end). A matcher reads the properties of only the events that have candidates: that sparse
    /// read missed the cache on most events of a multi-million-event replay.
    @inlinable @inline(__always)
    package func prefetchProperties(of i: Int) {
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
    package func value(at p: Int) -> PropertyValue {
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

    /// The position of property `key` of event `i` as `filter` sees it, or -1 when the event lacks it
    /// or holds null or a value of another type (the filter then holds only if its operator does on
    /// a missing property).
    @inline(__always)
    package func property(_ key: Int32, of i: Int, for filter: Filter) -> Int {
        let p = property(key, of: i)
        guard p >= 0, let tag = ValueTag(rawValue: propertyTags[p]), tag != .null, tag.satisfies(filter.type) else { return -1 }
        return p
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
