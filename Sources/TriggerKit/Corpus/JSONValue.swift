/// A parsed JSON document that keeps what `Foundation.JSONSerialization` loses:
/// integer vs. floating-point numbers, object key order, and duplicate-key detection.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer literal that fits `Int64` (no fraction, no exponent).
    case int(Int64)
    /// Any other finite number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order; keys are unique (the parser refuses duplicates).
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of member `key` when this is an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// A short name of the JSON type, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The numeric value, when this is a number.
    package var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
}

extension JSONValue {
    /// Compact JSON text, keys in stored order (used for output lines and round trips).
    package var serialized: String { serialized(keepingDoubles: false) }

    /// Compact JSON text; with `keepingDoubles`, a double stays a double when read back (`3.0`,
    /// `-0.0`, not `3` and `0`): what a file written to test number handling needs.
    package func serialized(keepingDoubles: Bool) -> String {
        String(decoding: serializedBytes(keepingDoubles: keepingDoubles), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes, written into one buffer (a String appended piece by piece cost
    /// about ten times as much for a corpus of 1,000 triggers).
    package func serializedBytes(keepingDoubles: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        JSONValue.write(self, keepingDoubles: keepingDoubles, into: &out)
        return out
    }

    /// Appends the compact text to `out` (a writer reusing one buffer for many values).
    package func serialize(into out: inout [UInt8]) { JSONValue.write(self, keepingDoubles: false, into: &out) }

    static func write(_ value: JSONValue, keepingDoubles: Bool, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: (keepingDoubles ? d.description : JSONValue.format(d)).utf8)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, keepingDoubles: keepingDoubles, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                quote(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, keepingDoubles: keepingDoubles, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a JSON string literal in UTF-8, escaped as the String form below escapes it.
    static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count {
                let b = bytes[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                start = i + 1
                switch b {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 15)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Formats a finite double the shortest way that reads back identically; integral values print without ".0".
    package static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Appends `s` as a JSON string literal.
    package static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// Parses one complete JSON document into a tree (integers kept apart from doubles, key order kept,
    /// duplicate keys refused), through a `JSONTape`; trailing non-whitespace is an error. See
    /// `JSONScanner` for what is refused.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = JSONTape.defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        let tape = JSONTape(bytes: bytes)
        try tape.parseDocument(maxDepth: maxDepth)
        return tape.value(0)
    }

    package static func parse(_ text: String, maxDepth: Int = JSONTape.defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
