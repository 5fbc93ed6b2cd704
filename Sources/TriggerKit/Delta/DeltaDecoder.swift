/// Decodes a `trigger-delta/1` document (docs/deltas.md): `{"format": "trigger-delta/1", "add": [...],
/// "remove": ["id", ...], "replace": [...]}`, each trigger validated as a corpus's are. A delta that
/// breaks a rule is refused whole, with the JSON path and the reason.
public enum DeltaDecoder {
    public static let format = "trigger-delta/1"

    public static func load(path: String) throws -> TriggerSetDelta { try CorpusDecoder.document(at: path, decode: decode(bytes:)) }

    public static func decode(bytes: [UInt8]) throws -> TriggerSetDelta {
        let json = try CorpusDecoder.parse(bytes)
        let root = try JSONNode(value: json, path: "").object(allowed: ["format", "add", "remove", "replace", "description"], what: "a delta")
        let format = try root.required("format", what: "must be \"\(Self.format)\"")
        guard try format.string(what: "the delta format") == Self.format else {
            throw format.fail("unsupported format \(format.value.serialized); expected \"\(Self.format)\"")
        }
        let regexes = CorpusDecoder.RegexCache()
        var delta = TriggerSetDelta()
        if let list = root.optionalNonNull("add") {
            delta.add = try list.array(what: "the triggers to add").map { try CorpusDecoder.decodeTrigger($0, regexes) }
        }
        if let list = root.optionalNonNull("replace") {
            delta.replace = try list.array(what: "the triggers to replace").map { try CorpusDecoder.decodeTrigger($0, regexes) }
        }
        if let list = root.optionalNonNull("remove") {
            delta.remove = try list.array(what: "the ids of the triggers to remove").map { node in
                guard case .string(let id) = node.value, !id.isEmpty else {
                    throw node.fail("expected a trigger id (a non-empty string), found \(node.value.serialized)")
                }
                return id
            }
        }
        guard delta.count <= CorpusDecoder.maxTriggers else {
            throw InputError(path: "", reason: "the delta names \(delta.count) triggers; at most \(CorpusDecoder.maxTriggers) are allowed")
        }
        return delta
    }
}
