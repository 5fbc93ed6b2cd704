/// Decodes a `trigger-delta/1` document (docs/deltas.md): `{"format": "trigger-delta/1", "add": [...],
/// "remove": ["id", ...], "replace": [...]}`, each trigger validated as a corpus's are. A delta that
/// breaks a rule is refused whole, with the JSON path and the reason.
public enum DeltaDecoder {
    public static let format = "trigger-delta/1"

    /// Reads and decodes the delta at `path` within the memory available (`MemoryAllowance`).
    public static func load(path: String) throws -> TriggerSetDelta {
        let allowance = MemoryAllowance()
        return try CorpusDecoder.document(at: path, allowance: allowance) { try decode(bytes: $0, allowance: allowance) }
    }

    public static func decode(bytes: [UInt8]) throws -> TriggerSetDelta { try decode(bytes: bytes, allowance: MemoryAllowance()) }

    /// `decode(bytes:)`, claiming from `allowance` the tape as it grows and then, before any trigger
    /// is decoded, a bound on what decoding them all takes: a delta that would not fit is refused in
    /// one line instead of aborting in the allocator.
    package static func decode(bytes: [UInt8], allowance: MemoryAllowance) throws -> TriggerSetDelta {
        let tape = JSONTape(bytes: bytes, allowance: allowance)
        try CorpusDecoder.located { () throws(JSONSyntaxError) in try tape.parseDocument() }
        let document = JSONNode(tape: tape, at: 0)
        let root = try document.object(allowed: ["format", "add", "remove", "replace", "description"], what: "a delta")
        let format = try root.required("format", what: "must be \"\(Self.format)\"")
        guard try format.string(what: "the delta format") == Self.format else {
            throw format.fail("unsupported format \(format.value.serialized); expected \"\(Self.format)\"")
        }
        // Known to be a delta: a bound on decoding all its triggers, claimed before the first.
        do throws(MemoryAllowance.Exceeded) { try allowance.claim(CorpusDecoder.decodedBytesBound(document)) } catch {
            throw InputError(path: "$", reason: "decoding its triggers \(error.phrase); split the delta or free memory")
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
        // Compiled regexes are known only once compiled: each trigger's are claimed after it decodes.
        func decode(_ node: JSONNode) throws -> Trigger {
            let compiled = regexes.compiledBytes
            let trigger = try CorpusDecoder.decodeTrigger(node, regexes)
            do throws(MemoryAllowance.Exceeded) { try allowance.claim(regexes.compiledBytes - compiled) } catch {
                throw InputError(path: node.path, reason: "compiling its regexes \(error.phrase); split the delta or free memory")
            }
            return trigger
        }
        delta.add = try add.map(decode)
        delta.replace = try replace.map(decode)
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
