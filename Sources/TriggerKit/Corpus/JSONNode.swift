/// A JSON value with the path it was found at, so every refusal can say where.
///
/// The path is kept as the parent's path and this node's last step, joined only when asked: a corpus
/// has millions of nodes and needs a path for at most one of them (joining each eagerly was a fifth of
/// decoding a 100,000-trigger corpus).
struct JSONNode {
    enum Step {
        case none
        case key(String)
        case index(Int)
    }

    let value: JSONValue
    /// The parent's path (or the whole path, with no step).
    let prefix: String
    let step: Step

    init(value: JSONValue, path: String) {
        self.value = value
        prefix = path
        step = .none
    }

    init(value: JSONValue, prefix: String, step: Step) {
        self.value = value
        self.prefix = prefix
        self.step = step
    }

    var path: String {
        switch step {
        case .none: prefix
        case .key(let key): prefix.isEmpty ? key : prefix + "." + key
        case .index(let i): prefix + "[" + String(i) + "]"
        }
    }

    func fail(_ reason: String) -> InputError { InputError(path: path.isEmpty ? "$" : path, reason: reason) }

    func child(_ key: String, _ value: JSONValue) -> JSONNode { JSONNode(value: value, prefix: path, step: .key(key)) }

    func element(_ i: Int, _ value: JSONValue) -> JSONNode { JSONNode(value: value, prefix: path, step: .index(i)) }

    /// Members of an object; refuses other types and keys outside `allowed` (when given).
    /// `allowed` is a list, not a set: a corpus checks millions of small objects against a few keys,
    /// and building a set per call cost more than the scans.
    func object(allowed: [String]? = nil, what: String) throws -> JSONObjectReader {
        guard case .object(let members) = value else { throw fail("expected \(what) (an object), found \(value.typeName)") }
        if let allowed {
            for m in members where !allowed.contains(m.key) {
                throw child(m.key, m.value).fail(
                    "unknown key \"\(m.key)\" in \(what); allowed: \(allowed.sorted().joined(separator: ", "))")
            }
        }
        return JSONObjectReader(node: self, members: members, path: path)
    }

    func array(what: String) throws -> [JSONNode] {
        guard case .array(let items) = value else { throw fail("expected \(what) (an array), found \(value.typeName)") }
        let base = path  // joined once for all the elements
        return items.enumerated().map { JSONNode(value: $0.element, prefix: base, step: .index($0.offset)) }
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
    /// `node.path`, joined once for all the members.
    let path: String

    func has(_ key: String) -> Bool { members.contains(where: { $0.key == key }) }

    /// The member as a node, nil when absent.
    func optional(_ key: String) -> JSONNode? {
        guard let m = members.first(where: { $0.key == key }) else { return nil }
        return JSONNode(value: m.value, prefix: path, step: .key(key))
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
