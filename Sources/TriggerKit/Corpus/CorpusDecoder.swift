import Foundation

/// Decodes and validates a `trigger-corpus/1` document (docs/semantics.md, "Triggers"); a corpus that breaks any rule is
/// refused whole with the trigger id, the JSON path and the reason. Nothing is half-loaded.
public enum CorpusDecoder {
    public static let format = "trigger-corpus/1"
    public static let maxTriggers = 1_000_000
    public static let maxConditions = 64
    public static let maxFiltersPerClause = 64
    public static let maxRegexBytes = 4096
    /// Largest corpus file read (a million triggers fit comfortably).
    /// 4 GiB: a million range subscriptions of ten intervals are 1.35 GB of JSON. What fits in memory is
    /// checked against the memory available before reading (`LoadedCorpus.checkRoom`).
    public static let maxFileBytes = 1 << 32
    /// The fix a memory refusal of a corpus ends with (a generated workload's says "lower triggers").
    package static let memoryFix = "load fewer triggers or free memory"

    /// Reads, parses and validates the corpus at `path`, within the memory available (`MemoryAllowance`).
    /// `progress` is told the bytes decoded and the file's size now and then (every `progressEvery` triggers).
    public static func load(path: String, progress: Progress? = nil) throws -> TriggerSet {
        let allowance = MemoryAllowance()
        return try document(at: path, allowance: allowance) { try decode(bytes: $0, allowance: allowance, progress: progress) }
    }

    /// Told `(bytes decoded, bytes in all)` while a corpus decodes.
    public typealias Progress = (_ done: Int, _ total: Int) -> Void
    static let progressEvery = 1_024

    /// Decodes a corpus from its bytes, one trigger at a time: the document is parsed with its list of
    /// triggers left in place, then each trigger is parsed into one reused tape and decoded, so loading
    /// holds the file, one trigger's tape and the triggers decoded so far.
    public static func decode(bytes: [UInt8]) throws -> TriggerSet { try decode(bytes: bytes, allowance: MemoryAllowance()) }

    /// `decode(bytes:)`, claiming from `allowance` what the tapes and the decoded triggers take: a
    /// corpus that would not fit is refused at the trigger where it stops fitting. `inPieces` false
    /// keeps a long list on one thread (tests compare the two).
    package static func decode(bytes: [UInt8], allowance: MemoryAllowance, progress: Progress? = nil,
                               inPieces: Bool = true) throws -> TriggerSet {
        let tape = JSONTape(bytes: bytes, allowance: allowance)
        try located { () throws(JSONSyntaxError) in try tape.parseDocument(deferring: "triggers") }
        return try decode(root: JSONNode(tape: tape, at: 0), allowance: allowance, progress: progress, inPieces: inPieces)
    }

    /// `decode` of the file at `path` (at most `maxFileBytes`, held within `allowance`), its errors
    /// attributed to the file.
    package static func document<T>(at path: String, allowance: MemoryAllowance = MemoryAllowance(), decode: ([UInt8]) throws -> T) throws -> T {
        let bytes = try BoundedFile.read(path, limit: maxFileBytes, allowance: allowance)
        do {
            return try decode(bytes)
        } catch let error as InputError {
            throw error.inFile(path)
        }
    }

    /// `body`'s syntax error as an `InputError` at its line and column.
    static func located<T>(_ body: () throws(JSONSyntaxError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw InputError(path: "line \(error.line), column \(error.column)", reason: error.exceedsMemory ? error.reason : "invalid JSON: \(error.reason)")
        }
    }

    package static func decode(_ json: JSONValue) throws -> TriggerSet { try decode(root: JSONNode(value: json, path: "")) }

    static func decode(root node: JSONNode, allowance: MemoryAllowance = .unlimited, progress: Progress? = nil,
                       inPieces: Bool = false) throws -> TriggerSet {
        let root = try node.object(
            allowed: ["format", "settings", "triggers", "name", "description"], what: "a corpus")
        let format = try root.required("format", what: "must be \"\(Self.format)\"")
        guard try format.string(what: "the corpus format") == Self.format else {
            throw format.fail("unsupported format \(format.value.serialized); expected \"\(Self.format)\"")
        }
        var interval = 30.0
        var categories = ActionCategories.standard
        if let settingsNode = root.optionalNonNull("settings") {
            let settings = try settingsNode.object(allowed: ["minimum_trigger_interval", "action_categories"], what: "settings")
            if let n = settings.optionalNonNull("minimum_trigger_interval") {
                interval = try nonNegativeSeconds(n, what: "the minimum trigger interval")
            }
            if let n = settings.optionalNonNull("action_categories") {
                categories = try decodeActionCategories(n)
            }
        }
        let list = try root.required("triggers", what: "the list of triggers")
        let triggers = try decodeTriggers(list, allowance: allowance, progress: progress, inPieces: inPieces)
        return TriggerSet(triggers: triggers, minimumTriggerInterval: interval, actionCategories: categories)
    }

    /// Fewer bytes than the shortest trigger a corpus accepts (`{"id":"a","conditions":[…]}`).
    static let minimumTriggerBytes = 24

    /// What decoding the trigger at `node` may take at most: per JSON value of its tape, a node for it
    /// (lists are read as arrays of nodes), a decoded value and an allocation's header; its text twice
    /// (strings copied out of the document, and their unescaped forms); and its share of the id table.
    /// A bound, not an estimate: measuring again corrects it.
    static func decodedBytesBound(_ node: JSONNode) -> Int {
        guard let (tape, _) = node.tapeEntry else { return 0 }
        let perValue = MemoryLayout<JSONNode>.stride + MemoryLayout<PropertyValue>.stride + 16
        return tape.entries.count * perValue + 2 * tape.parsedBytes + tape.unescaped.count + 128
    }

    /// `settings.action_categories`: custom categories, `[{"id": …, "buttons": [{"id": …, "title": …}]}]`,
    /// registered after the four defaults.
    static func decodeActionCategories(_ node: JSONNode) throws -> ActionCategories {
        var categories = ActionCategories.standard
        let list = try node.array(what: "the custom action-button categories")
        guard list.count <= 1000 else { throw node.fail("\(list.count) categories; at most 1000 are allowed") }
        for item in list {
            let obj = try item.object(allowed: ["id", "buttons"], what: "an action-button category")
            let id = try obj.required("id", what: "the category id").string(what: "the category id")
            let buttonNodes = try obj.required("buttons", what: "the category's buttons").array(what: "the category's buttons")
            guard buttonNodes.count <= 16 else { throw item.fail("\(buttonNodes.count) buttons; at most 16 are allowed") }
            var buttons: [ActionButton] = []
            for b in buttonNodes {
                let bo = try b.object(allowed: ["id", "title"], what: "an action button")
                let bid = try bo.required("id", what: "the button's action id").string(what: "the button's action id")
                let title = try bo.optionalNonNull("title")?.string(what: "the button's title") ?? bid
                guard bid.utf8.count <= EventDecoder.maxNameBytes, title.utf8.count <= EventDecoder.maxStringBytes else {
                    throw b.fail("button id and title must be at most \(EventDecoder.maxNameBytes) UTF-8 bytes")
                }
                buttons.append(ActionButton(id: bid, title: title))
            }
            do {
                try categories.register(ActionCategory(id: id, buttons: buttons))
            } catch {
                throw item.fail("cannot register the category: \(error)")
            }
        }
        return categories
    }

    /// One `CompiledRegex` per distinct pattern of a corpus: equal patterns are compiled once and share
    /// the object, so builds can tell them apart by identity (`PredicateProgram`'s regex slots).
    final class RegexCache {
        /// Shared by the pieces of a list decoded side by side, so a pattern compiles once per corpus.
        let table: RegexTable
        /// A bound on what the regexes this cache compiled hold (RE2's programs are outside Swift's heap).
        var compiledBytes = 0

        init(sharing table: RegexTable = RegexTable()) { self.table = table }

        /// The compiled `pattern`: the corpus's earlier one, or compiled now.
        func regex(_ pattern: String) throws(CompiledRegex.InvalidPattern) -> CompiledRegex {
            let (re, compiled) = try table.byPattern.withLock { (byPattern) throws(CompiledRegex.InvalidPattern) -> (CompiledRegex, Bool) in
                if let shared = byPattern[pattern] { return (shared, false) }
                let re = try CompiledRegex(pattern)
                byPattern[pattern] = re
                return (re, true)
            }
            if compiled { compiledBytes += re.bytesBound }
            return re
        }
    }

    final class RegexTable: Sendable {
        let byPattern = Locked<[String: CompiledRegex]>([:])
    }

    static let triggerKeys: [String] = [
        "id", "priority", "start_time", "end_time", "delay", "timeout", "re_eligibility",
        "min_seconds_since_last_trigger", "conditions", "message", "name", "description",
    ]

    static func decodeTrigger(_ node: JSONNode, _ regexes: RegexCache) throws -> Trigger {
        // The id first, so every later error can name the trigger.
        guard node.kind == .object else { throw node.fail("expected a trigger (an object), found \(node.typeName)") }
        var id: String?
        if let s = try node.object(what: "a trigger").optional("id")?.stringValue, !s.isEmpty { id = s }
        do {
            let obj = try node.object(allowed: triggerKeys, what: "a trigger")
            let idValue = try obj.required("id", what: "a unique, non-empty string")
            guard let id else {
                throw idValue.fail("trigger id must be a non-empty string, found \(idValue.value.serialized)")
            }
            var trigger = Trigger(id: id, conditions: [])
            if let n = obj.optionalNonNull("priority") { trigger.priority = try n.number(what: "the priority") }
            if let n = obj.optionalNonNull("start_time") { trigger.startTime = try timestamp(n, what: "the start time") }
            if let n = obj.optionalNonNull("end_time") { trigger.endTime = try timestamp(n, what: "the end time") }
            if let s = trigger.startTime, let e = trigger.endTime, s > e {
                // As written: an ISO date stays a date, not the epoch seconds it was read as.
                let written = { (key: String) in obj.optional(key)!.value.serialized }
                throw obj.optional("end_time")!.fail("end_time \(written("end_time")) is before start_time \(written("start_time"))")
            }
            if let n = obj.optionalNonNull("delay") { trigger.delay = try nonNegativeSeconds(n, what: "the delay") }
            if let n = obj.optionalNonNull("timeout") { trigger.timeout = try nonNegativeSeconds(n, what: "the timeout") }
            if let n = obj.optionalNonNull("re_eligibility") {
                let v = try n.number(what: "re-eligibility in seconds")
                guard v == -1 || v >= 0 else {
                    throw n.fail("re_eligibility must be -1 (once ever), 0 (always) or a positive number of seconds, found \(JSONValue.format(v))")
                }
                trigger.reEligibility = v
            }
            if let n = obj.optionalNonNull("min_seconds_since_last_trigger") {
                trigger.minSecondsSinceLastTrigger = try nonNegativeSeconds(n, what: "the minimum interval")
            }
            let conditions = try obj.required("conditions", what: "a non-empty list of conditions")
                .array(what: "the list of conditions")
            guard !conditions.isEmpty else {
                throw obj.optional("conditions")!.fail("a trigger needs at least one condition")
            }
            guard conditions.count <= maxConditions else {
                throw obj.optional("conditions")!.fail("\(conditions.count) conditions; at most \(maxConditions) are allowed")
            }
            trigger.conditions = try conditions.map { try decodeCondition($0, regexes) }
            if let n = obj.optionalNonNull("message") { trigger.message = try decodeMessage(n) }
            return trigger
        } catch var error as InputError {
            error.triggerID = id
            throw error
        }
    }

    static func decodeCondition(_ node: JSONNode, _ regexes: RegexCache) throws -> Condition {
        guard node.kind == .object else { throw node.fail("expected a condition (an object), found \(node.typeName)") }
        let typeNode = try node.object(what: "a condition").required("type", what: "the condition type")
        let type = try typeNode.string(what: "the condition type")
        switch type {
        case "custom_event":
            let obj = try node.object(allowed: ["type", "event_name", "filters"], what: "a custom_event condition")
            let nameNode = try obj.required("event_name", what: "the custom event's name")
            let name = try boundedName(nameNode, "event name", what: "the event name", whenEmpty: "")
            return .customEvent(name: name, filters: try decodeFilters(obj.optionalNonNull("filters"), regexes))
        case "purchase":
            let obj = try node.object(allowed: ["type", "product_id", "filters"], what: "a purchase condition")
            var product: String?
            if let n = obj.optionalNonNull("product_id") {
                product = try boundedName(n, "product id", what: "the product id (or null for any purchase)", whenEmpty: "; use null for any purchase")
            }
            return .purchase(productID: product, filters: try decodeFilters(obj.optionalNonNull("filters"), regexes))
        case "session_start", "push_click":
            let allowed: [String] = type == "session_start" ? ["type"] : ["type", "campaign_id", "action_id"]
            let raw = try node.object(what: "a \(type) condition")
            if let f = raw.optional("filters") {
                throw f.fail("filters are allowed on custom_event and purchase conditions only, not on \(type)")
            }
            let obj = try node.object(allowed: allowed, what: "a \(type) condition")
            if type == "session_start" { return .sessionStart }
            var campaign: String?
            var action: String?
            if let n = obj.optionalNonNull("campaign_id") {
                campaign = try boundedName(n, "campaign id", what: "the campaign id (or null for any push)", whenEmpty: "; use null for any push click")
            }
            if let n = obj.optionalNonNull("action_id") {
                action = try boundedName(n, "action id", what: "the action button id", whenEmpty: "; omit it for any tap")
            }
            return .pushClick(campaignID: campaign, actionID: action)
        default:
            throw typeNode.fail(
                "unknown condition type \"\(type)\"; expected custom_event, purchase, session_start or push_click")
        }
    }

    /// An event name or id: 1–255 UTF-8 bytes as written (after JSON escapes, before normalization), the
    /// bound an event's own name or id is held to, so a constant no event could carry is refused.
    static func boundedName(_ node: JSONNode, _ noun: String, what: String, whenEmpty fix: String) throws -> String {
        let s = try node.string(what: what)
        guard !s.isEmpty else { throw node.fail("\(noun) must not be empty\(fix)") }
        guard s.utf8.count <= EventDecoder.maxNameBytes else {
            throw node.fail("\(noun) is \(s.utf8.count) UTF-8 bytes; at most \(EventDecoder.maxNameBytes) are allowed, as in events")
        }
        return s
    }

    static func nonNegativeSeconds(_ node: JSONNode, what: String) throws -> Double {
        let v = try node.number(what: what)
        guard v >= 0 else { throw node.fail("\(what) must be zero or more seconds, found \(JSONValue.format(v))") }
        return v
    }

    /// Epoch seconds given as a number, an ISO-8601 string or `{"$date": …}`.
    static func timestamp(_ node: JSONNode, what: String) throws -> Double {
        switch node.kind {
        case .int, .double: return try node.epochSeconds(what: what)
        case .string:
            let s = try node.string(what: what)
            guard let t = try EventDecoder.isoDate(node, s) else { throw node.fail("\"\(s)\" is not a strict ISO-8601 timestamp (2026-11-22T10:00:00Z)") }
            return t
        case .object:
            if let t = try EventDecoder.dollarDate(node) { return t }
            throw node.fail("expected \(what), found an object")
        default:
            throw node.fail("expected \(what), found \(node.typeName)")
        }
    }

    static func decodeMessage(_ node: JSONNode) throws -> Message {
        let obj = try node.object(allowed: ["type", "orientation", "assets", "extras"], what: "a message")
        var message = Message()
        if let n = obj.optionalNonNull("type") {
            message.type = try n.string(what: "the message type")
            guard !message.type.isEmpty else { throw n.fail("message type must not be empty") }
        }
        if let n = obj.optionalNonNull("orientation") {
            let o = try n.string(what: "any, portrait or landscape")
            guard let orientation = Message.Orientation(rawValue: o) else {
                throw n.fail("unknown orientation \"\(o)\"; expected any, portrait or landscape")
            }
            message.orientation = orientation
        }
        if let n = obj.optionalNonNull("assets") {
            message.assets = try n.array(what: "a list of asset URLs").map { try $0.string(what: "an asset URL") }
        }
        if let n = obj.optionalNonNull("extras") {
            let extras = try n.object(what: "extras")
            for (key, value) in extras.memberNodes {
                message.extras[key] = try value.string(what: "an extras value")
            }
        }
        return message
    }
}
