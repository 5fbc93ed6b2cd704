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

    /// The value, when this node is part of a tree (nil for a node of a tape).
    private let tree: JSONValue?
    /// The parent's path (or the whole path, with no step); tree nodes only.
    let prefix: String
    let step: Step
    /// A node of a tape: the tape and the entry.
    private let tape: JSONTape?
    private let at: Int

    init(value: JSONValue, path: String) {
        self.init(value: value, prefix: path, step: .none)
    }

    init(value: JSONValue, prefix: String, step: Step) {
        tree = value
        self.prefix = prefix
        self.step = step
        tape = nil
        at = 0
    }

    /// Entry `at` of `tape`; its path is found from the tape when an error needs it.
    init(tape: JSONTape, at: Int) {
        tree = nil
        prefix = ""
        step = .none
        self.tape = tape
        self.at = at
    }

    var path: String {
        if let tape { return tape.path(of: at) }
        switch step {
        case .none: return prefix
        case .key(let key): return prefix.isEmpty ? key : prefix + "." + key
        case .index(let i): return prefix + "[" + String(i) + "]"
        }
    }

    /// The value as a tree (built from a tape on demand: keep it to small values and error messages).
    var value: JSONValue { tree ?? tape!.value(at) }

    var kind: JSONTape.Kind {
        if let tape { return tape.kind(at) }
        switch tree! {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    var isNull: Bool { kind == .null }

    /// The tape and entry of a tape node.
    var tapeEntry: (JSONTape, Int)? { tape.map { ($0, at) } }

    /// A short name of the JSON type, for error messages.
    var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array, .deferred: "array"
        case .object: "object"
        }
    }

    func fail(_ reason: String) -> InputError { InputError(path: path.isEmpty ? "$" : path, reason: reason) }

    /// Members of an object; refuses other types and keys outside `allowed` (when given).
    /// `allowed` is a list, not a set: a corpus checks millions of small objects against a few keys,
    /// and building a set per call cost more than the scans.
    func object(allowed: [String]? = nil, what: String) throws -> JSONObjectReader {
        guard kind == .object else { throw fail("expected \(what) (an object), found \(typeName)") }
        let reader = JSONObjectReader(node: self)
        if let allowed, let tape {
            var k = at + 1
            let stop = tape.end(at)
            while k < stop {
                if !allowed.contains(where: { tape.text(k, equals: $0) }) {
                    let key = tape.string(k)
                    throw JSONNode(tape: tape, at: k + 1).fail(
                        "unknown key \"\(key)\" in \(what); allowed: \(allowed.sorted().joined(separator: ", "))")
                }
                k = tape.end(k + 1)
            }
        } else if let allowed {
            for (key, node) in reader.memberNodes where !allowed.contains(key) {
                throw node.fail("unknown key \"\(key)\" in \(what); allowed: \(allowed.sorted().joined(separator: ", "))")
            }
        }
        return reader
    }

    func array(what: String) throws -> [JSONNode] {
        guard kind == .array else { throw fail("expected \(what) (an array), found \(typeName)") }
        if let tape { return tape.elements(at).map { JSONNode(tape: tape, at: $0) } }
        guard case .array(let items) = tree! else { return [] }
        let base = path  // joined once for all the elements
        return items.enumerated().map { JSONNode(value: $0.element, prefix: base, step: .index($0.offset)) }
    }

    func string(what: String) throws -> String {
        guard kind == .string else { throw fail("expected \(what) (a string), found \(typeName)") }
        if let tape { return tape.string(at) }
        guard case .string(let s) = tree! else { return "" }
        return s
    }

    /// The string, or nil when this is not one.
    var stringValue: String? { kind == .string ? try? string(what: "") : nil }

    func number(what: String) throws -> Double {
        switch numberValue {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        default: throw fail("expected \(what) (a number), found \(typeName)")
        }
    }

    /// The number as written (an integer literal that fits `Int64`, or a double), nil when not a number.
    var numberValue: PropertyValue? {
        if let tape {
            switch tape.kind(at) {
            case .int: return .int(tape.int(at))
            case .double: return .double(tape.double(at))
            default: return nil
            }
        }
        switch tree! {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        default: return nil
        }
    }

    var boolValue: Bool? {
        if let tape { return tape.kind(at) == .bool ? tape.bool(at) : nil }
        if case .bool(let b) = tree! { return b }
        return nil
    }

    /// The most seconds from 1970 a time or date may be, either way: 2^53, below which a double holds
    /// every whole second exactly. Beyond it two integers would read as one time (2^53 + 1 as 2^53).
    /// An integer may be 2^53 itself; a number written with a fraction or exponent must round below it.
    static let maxEpochSeconds: UInt64 = 1 << 53

    /// Epoch seconds (an event time, a window bound, a date), refused beyond `maxEpochSeconds`.
    func epochSeconds(what: String) throws -> Double {
        let d = try number(what: what)
        let inRange: Bool, written: String
        switch numberValue {
        case .int(let i)?: (inRange, written) = (i.magnitude <= Self.maxEpochSeconds, String(i))
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
    /// A tree node's path, joined once for all its members ("" for a tape node, which needs none).
    private let path: String

    init(node: JSONNode) {
        self.node = node
        path = node.tapeEntry == nil ? node.path : ""
    }

    /// The members in document order, as nodes.
    var memberNodes: [(key: String, node: JSONNode)] {
        if let (tape, at) = node.tapeEntry {
            return tape.members(at).map { (tape.string($0.key), JSONNode(tape: tape, at: $0.value)) }
        }
        guard case .object(let members) = node.value else { return [] }
        return members.map { ($0.key, JSONNode(value: $0.value, prefix: path, step: .key($0.key))) }
    }

    var count: Int {
        if let (tape, at) = node.tapeEntry { return tape.count(at) }
        guard case .object(let members) = node.value else { return 0 }
        return members.count
    }

    func has(_ key: String) -> Bool { optional(key) != nil }

    /// The member as a node, nil when absent.
    func optional(_ key: String) -> JSONNode? {
        if let (tape, at) = node.tapeEntry { return tape.member(at, key).map { JSONNode(tape: tape, at: $0) } }
        guard case .object(let members) = node.value, let m = members.first(where: { $0.key == key }) else { return nil }
        return JSONNode(value: m.value, prefix: path, step: .key(key))
    }

    /// The member as a node, nil when absent or null.
    func optionalNonNull(_ key: String) -> JSONNode? {
        guard let n = optional(key), !n.isNull else { return nil }
        return n
    }

    func required(_ key: String, what: String) throws -> JSONNode {
        guard let n = optional(key) else {
            throw node.fail("missing required key \"\(key)\" (\(what))")
        }
        return n
    }
}
