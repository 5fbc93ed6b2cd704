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
        let add = try root.optionalNonNull("add")?.array(what: "the triggers to add") ?? []
        let replace = try root.optionalNonNull("replace")?.array(what: "the triggers to replace") ?? []
        let remove = try root.optionalNonNull("remove")?.array(what: "the ids of the triggers to remove") ?? []
        // Counted before any trigger is decoded, as a corpus's list is.
        let named = add.count + replace.count + remove.count
        guard named <= CorpusDecoder.maxTriggers else {
            throw InputError(path: "$", reason: "the delta names \(named) triggers; at most \(CorpusDecoder.maxTriggers) are allowed: split it")
        }
        delta.add = try add.map { try CorpusDecoder.decodeTrigger($0, regexes) }
        delta.replace = try replace.map { try CorpusDecoder.decodeTrigger($0, regexes) }
        if !remove.isEmpty {
            delta.remove = try remove.map { node in
                guard case .string(let id) = node.value, !id.isEmpty else {
                    throw node.fail("expected a trigger id (a non-empty string), found \(node.value.serialized)")
                }
                return id
            }
        }
        return delta
    }
}
