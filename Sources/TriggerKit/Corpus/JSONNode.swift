/// A JSON value with the path it was found at, so every refusal can say where.
struct JSONNode {
    let value: JSONValue
    let path: String

    func fail(_ reason: String) -> InputError { InputError(path: path.isEmpty ? "$" : path, reason: reason) }

    func child(_ key: String, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, path: path.isEmpty ? key : path + "." + key)
    }

    func element(_ i: Int, _ value: JSONValue) -> JSONNode { JSONNode(value: value, path: path + "[\(i)]") }

    /// Members of an object; refuses other types and keys outside `allowed` (when given).
    func object(allowed: Set<String>? = nil, what: String) throws -> JSONObjectReader {
        guard case .object(let members) = value else { throw fail("expected \(what) (an object), found \(value.typeName)") }
        if let allowed {
            for m in members where !allowed.contains(m.key) {
                throw child(m.key, m.value).fail(
                    "unknown key \"\(m.key)\" in \(what); allowed: \(allowed.sorted().joined(separator: ", "))")
            }
        }
        return JSONObjectReader(node: self, members: members)
    }

    func array(what: String) throws -> [JSONNode] {
        guard case .array(let items) = value else { throw fail("expected \(what) (an array), found \(value.typeName)") }
        return items.enumerated().map { element($0.offset, $0.element) }
    }

    func string(what: String) throws -> String {
        guard case .string(let s) = value else { throw fail("expected \(what) (a string), found \(value.typeName)") }
        return s
    }

    func number(what: String) throws -> Double {
        guard let d = value.number else { throw fail("expected \(what) (a number), found \(value.typeName)") }
        return d
    }

    /// The most seconds from 1970 a time or date may be, either way: 2^53, below which a double holds
    /// every whole second exactly. Beyond it two integers would read as one time (2^53 + 1 as 2^53).
    /// An integer may be 2^53 itself; a number written with a fraction or exponent must round below it.
    static let maxEpochSeconds: UInt64 = 1 << 53

    /// Epoch seconds (an event time, a window bound, a date), refused beyond `maxEpochSeconds`.
    func epochSeconds(what: String) throws -> Double {
        let d = try number(what: what)
        let inRange: Bool, written: String
        switch value {
        case .int(let i): (inRange, written) = (i.magnitude <= Self.maxEpochSeconds, String(i))
        // Below, not at: a fraction or exponent that rounds to 2^53 may have been written above it (9007199254740993.0).
        default: (inRange, written) = (d.magnitude < Double(Self.maxEpochSeconds), JSONValue.format(d))
        }
        guard inRange else {
            throw fail("\(what) \(written) is more than 2^53 seconds from 1970, where a double no longer holds every whole second; use a time between -9007199254740992 and 9007199254740992")
        }
        return d
    }
}

/// Typed access to the members of one JSON object.
struct JSONObjectReader {
    let node: JSONNode
    let members: [(key: String, value: JSONValue)]

    func has(_ key: String) -> Bool { members.contains(where: { $0.key == key }) }

    /// The member as a node, nil when absent.
    func optional(_ key: String) -> JSONNode? {
        guard let m = members.first(where: { $0.key == key }) else { return nil }
        return node.child(key, m.value)
    }

    /// The member as a node, nil when absent or null.
    func optionalNonNull(_ key: String) -> JSONNode? {
        guard let n = optional(key), n.value != .null else { return nil }
        return n
    }

    func required(_ key: String, what: String) throws -> JSONNode {
        guard let n = optional(key) else {
            throw node.fail("missing required key \"\(key)\" (\(what))")
        }
        return n
    }
}
