import CTriggerBenchPlugin

/// The replay buffers a matcher reads: one column per field, valid during one `match` call only.
public struct Events: @unchecked Sendable {
    // The columns' base addresses, read once per call: an access is then one indexed load, as in C.
    @usableFromInline let kinds: UnsafePointer<UInt8>
    @usableFromInline let keys: UnsafePointer<Int32>
    @usableFromInline let actions: UnsafePointer<Int32>
    @usableFromInline let times: UnsafePointer<Double>
    @usableFromInline let propertyStart: UnsafePointer<Int32>
    @usableFromInline let propertyKeys: UnsafePointer<Int32>
    @usableFromInline let propertyTags: UnsafePointer<UInt8>
    @usableFromInline let propertyBits: UnsafePointer<UInt64>
    @usableFromInline let strings: UnsafePointer<tb_string>
    public let count: Int
    /// Ids at or above this are strings no corpus constant equals (a regex may still match them).
    public let corpusStringCount: Int32

    @inlinable init(_ raw: UnsafePointer<tb_events>) {
        let e = raw.pointee
        kinds = e.kinds
        keys = e.keys
        actions = e.actions
        times = e.times
        propertyStart = e.property_start
        propertyKeys = e.property_keys
        propertyTags = e.property_tags
        propertyBits = e.property_bits
        strings = e.strings
        count = Int(e.count)
        corpusStringCount = e.corpus_string_count
    }

    @inlinable public func kind(_ event: Int) -> EventKind { EventKind(rawValue: kinds[event]) }
    /// Event name, product or campaign id; nil when the event has none (a session start, a push without campaign).
    @inlinable public func key(_ event: Int) -> Int32? {
        let k = keys[event]
        return k >= 0 ? k : nil
    }
    /// The tapped button of a push click; nil for a plain tap.
    @inlinable public func action(_ event: Int) -> Int32? {
        let a = actions[event]
        return a >= 0 ? a : nil
    }
    /// Epoch seconds, fractions included.
    @inlinable public func time(_ event: Int) -> Double { times[event] }
    @inlinable public func properties(_ event: Int) -> Properties {
        Properties(keys: propertyKeys, tags: propertyTags, bits: propertyBits,
                   range: Int(propertyStart[event])..<Int(propertyStart[event + 1]))
    }
    /// A string's UTF-8 bytes by id (corpus strings and strings only events use).
    @inlinable public func string(_ id: Int32) -> UnsafeBufferPointer<UInt8> {
        let s = strings[Int(id)]
        return UnsafeBufferPointer(start: UnsafeRawPointer(s.bytes)?.assumingMemoryBound(to: UInt8.self), count: s.length)
    }
}

/// One event's properties, sorted by key id with unique keys.
public struct Properties: RandomAccessCollection, @unchecked Sendable {
    @usableFromInline let keys: UnsafePointer<Int32>
    @usableFromInline let tags: UnsafePointer<UInt8>
    @usableFromInline let bits: UnsafePointer<UInt64>
    public let range: Range<Int>
    @inlinable init(keys: UnsafePointer<Int32>, tags: UnsafePointer<UInt8>, bits: UnsafePointer<UInt64>, range: Range<Int>) {
        self.keys = keys
        self.tags = tags
        self.bits = bits
        self.range = range
    }

    @inlinable public var startIndex: Int { range.lowerBound }
    @inlinable public var endIndex: Int { range.upperBound }
    @inlinable public subscript(position: Int) -> (key: Int32, value: Value) {
        (keys[position], Value(tag: tags[position], bits: bits[position]))
    }

    /// The value under `key`, or nil when the event has no such property (binary search).
    @inlinable public subscript(key key: Int32) -> Value? {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        guard low < range.upperBound, keys[low] == key else { return nil }
        return Value(tag: tags[low], bits: bits[low])
    }
}

/// A property's value.
public enum Value: Sendable, Equatable {
    case int(Int64)
    case double(Double)
    /// A string id (`Events.string(_:)`); equal strings have equal ids.
    case string(Int32)
    case bool(Bool)
    /// Epoch seconds.
    case date(Double)
    case null

    @inlinable init(tag: UInt8, bits: UInt64) {
        switch Int(tag) {
        case TB_VALUE_INT: self = .int(Int64(bitPattern: bits))
        case TB_VALUE_DOUBLE: self = .double(Double(bitPattern: bits))
        case TB_VALUE_STRING: self = .string(Int32(truncatingIfNeeded: bits))
        case TB_VALUE_BOOL: self = .bool(bits != 0)
        case TB_VALUE_DATE: self = .date(Double(bitPattern: bits))
        default: self = .null
        }
    }

    /// The value as a number filter sees it: nil unless an integer or a double.
    @inlinable public var number: Number? {
        switch self {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        default: return nil
        }
    }
}
