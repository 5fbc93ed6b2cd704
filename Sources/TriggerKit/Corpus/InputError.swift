/// Bad input refused with its location (docs/semantics.md, "Exit codes"): the file, the JSON path (or line and column), the reason.
public struct InputError: Error, CustomStringConvertible, Equatable {
    /// The file the input came from, when it came from one.
    public var file: String?
    /// `triggers[12].conditions[0].op`, or `line 3, column 7` for syntax errors.
    public var path: String
    public var reason: String
    /// The trigger whose definition is at fault, when known.
    public var triggerID: String?

    public init(file: String? = nil, path: String, reason: String, triggerID: String? = nil) {
        self.file = file
        self.path = path
        self.reason = reason
        self.triggerID = triggerID
    }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if !path.isEmpty { parts.append(path) }
        var text = parts.joined(separator: ": ")
        text += text.isEmpty ? reason : ": " + reason
        if let triggerID { text += " (trigger \"\(triggerID)\")" }
        return text
    }

    /// The same error attributed to `file`.
    public func inFile(_ file: String) -> InputError {
        var copy = self
        copy.file = file
        return copy
    }
}

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
