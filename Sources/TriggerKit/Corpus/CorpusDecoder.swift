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

    /// Reads, parses and validates the corpus at `path`.
    public static func load(path: String) throws -> TriggerSet { try document(at: path, decode: decode(bytes:)) }

    public static func decode(bytes: [UInt8]) throws -> TriggerSet { try decode(parse(bytes)) }

    /// `decode` of the file at `path` (at most `maxFileBytes`), its errors attributed to the file.
    static func document<T>(at path: String, decode: ([UInt8]) throws -> T) throws -> T {
        let bytes = try BoundedFile.read(path, limit: maxFileBytes)
        do {
            return try decode(bytes)
        } catch let error as InputError {
            throw error.inFile(path)
        }
    }

    /// The JSON of a document, or its syntax error as an `InputError` at its line and column.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw InputError(path: "line \(error.line), column \(error.column)", reason: "invalid JSON: \(error.reason)")
        }
    }

    package static func decode(_ json: JSONValue) throws -> TriggerSet {
        let root = try JSONNode(value: json, path: "").object(
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
        let list = try root.required("triggers", what: "the list of triggers").array(what: "the list of triggers")
        guard list.count <= maxTriggers else {
            throw root.node.child("triggers", .null).fail("\(list.count) triggers; at most \(maxTriggers) are allowed")
        }
        var triggers: [Trigger] = []
        triggers.reserveCapacity(list.count)
        var firstIndexOfID: [String: Int] = [:]
        let regexes = RegexCache()
        for (i, node) in list.enumerated() {
            let trigger = try decodeTrigger(node, regexes)
            if let earlier = firstIndexOfID[trigger.id] {
                throw InputError(
                    path: node.path + ".id", reason: "duplicate trigger id, already used by triggers[\(earlier)]",
                    triggerID: trigger.id)
            }
            firstIndexOfID[trigger.id] = i
            triggers.append(trigger)
        }
        return TriggerSet(triggers: triggers, minimumTriggerInterval: interval, actionCategories: categories)
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
        var byPattern: [String: CompiledRegex] = [:]
    }

    static let triggerKeys: [String] = [
        "id", "priority", "start_time", "end_time", "delay", "timeout", "re_eligibility",
        "min_seconds_since_last_trigger", "conditions", "message", "name", "description",
    ]

    static func decodeTrigger(_ node: JSONNode, _ regexes: RegexCache) throws -> Trigger {
        // The id first, so every later error can name the trigger.
        guard case .object = node.value else { throw node.fail("expected a trigger (an object), found \(node.value.typeName)") }
        let idNode = node.value["id"].map { node.child("id", $0) }
        var id: String?
        if let idNode, case .string(let s) = idNode.value, !s.isEmpty { id = s }
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
                throw obj.optional("end_time")!.fail("end_time \(JSONValue.format(e)) is before start_time \(JSONValue.format(s))")
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
        guard case .object = node.value else { throw node.fail("expected a condition (an object), found \(node.value.typeName)") }
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

    static func decodeFilters(_ node: JSONNode?, _ regexes: RegexCache) throws -> FilterCNF {
        guard let node else { return FilterCNF(clauses: []) }
        let clauses = try node.array(what: "filters in conjunctive normal form: an array of arrays")
        return FilterCNF(clauses: try clauses.map { clause in
            let filters = try clause.array(what: "a clause: an array of filters, any of which may hold")
            guard filters.count <= maxFiltersPerClause else {
                throw clause.fail("\(filters.count) filters in one clause; at most \(maxFiltersPerClause) are allowed")
            }
            return try filters.map { try decodeFilter($0, regexes) }
        })
    }

    static func decodeFilter(_ node: JSONNode, _ regexes: RegexCache) throws -> Filter {
        let obj = try node.object(allowed: ["property", "type", "op", "value"], what: "a filter")
        let propNode = try obj.required("property", what: "the property name")
        let property = try propNode.string(what: "the property name")
        guard !property.isEmpty else { throw propNode.fail("property name must not be empty") }
        let typeNode = try obj.required("type", what: "number, string, boolean or date")
        let typeName = try typeNode.string(what: "the filter type")
        guard let type = PropertyType(rawValue: typeName) else {
            throw typeNode.fail("unknown filter type \"\(typeName)\"; expected number, string, boolean or date")
        }
        let opNode = try obj.required("op", what: "the operator")
        let opName = try opNode.string(what: "the operator")
        let allowed = FilterOperator.allowed(for: type)
        guard let op = FilterOperator(rawValue: opName), allowed.contains(op) else {
            throw opNode.fail(
                "unknown operator \"\(opName)\" for type \(typeName); expected one of \(allowed.map(\.rawValue).joined(separator: " "))")
        }
        let operand = try decodeOperand(obj, type: type, op: op, regexes)
        return Filter(property: property, type: type, op: op, operand: operand)
    }

    static func decodeOperand(_ obj: JSONObjectReader, type: PropertyType, op: FilterOperator, _ regexes: RegexCache) throws -> Filter.Operand {
        if op == .exists || op == .notExists {
            if let v = obj.optionalNonNull("value") { throw v.fail("\(op.rawValue) takes no value") }
            return .none
        }
        let v = try obj.required("value", what: "the value \(op.rawValue) compares with")
        switch (type, op) {
        case (.number, .in), (.number, .notIn):
            return .numbers(try v.array(what: "a list of numbers").map { try numberValue($0) })
        case (.number, _):
            return .number(try numberValue(v))
        case (.string, .regex), (.string, .notRegex):
            let pattern = try v.string(what: "a regular expression")
            guard pattern.utf8.count <= maxRegexBytes else {
                throw v.fail("regular expression is \(pattern.utf8.count) bytes; at most \(maxRegexBytes) are allowed")
            }
            if let shared = regexes.byPattern[pattern] { return .regex(shared) }
            do {
                let re = try CompiledRegex(pattern)
                regexes.byPattern[pattern] = re
                return .regex(re)
            } catch {
                throw v.fail("regular expression \(v.value.serialized) is not valid RE2 syntax: \(error.reason)" + regexHint(pattern))
            }
        case (.string, .in), (.string, .notIn):
            return .strings(try v.array(what: "a list of strings").map { try boundedString($0) })
        case (.string, _):
            return .string(try boundedString(v))
        case (.boolean, _):
            guard case .bool(let b) = v.value else { throw v.fail("expected true or false, found \(v.value.typeName)") }
            return .bool(b)
        case (.date, .before), (.date, .after):
            return .seconds(try timestamp(v, what: "a date (epoch seconds or ISO-8601)"))
        case (.date, _):
            return .seconds(try nonNegativeSeconds(v, what: "a number of seconds"))
        }
    }

    /// A string constant: at most 255 UTF-8 bytes as written, as every event string is (a longer one
    /// could never be compared with one).
    static func boundedString(_ node: JSONNode) throws -> String {
        let s = try node.string(what: "a string")
        guard s.utf8.count <= EventDecoder.maxStringBytes else {
            throw node.fail("string constant is \(s.utf8.count) UTF-8 bytes; at most \(EventDecoder.maxStringBytes) are allowed, as in events")
        }
        return s
    }

    /// Why RE2 may have refused `pattern`, when it uses what RE2 leaves out on purpose.
    static func regexHint(_ pattern: String) -> String {
        let lookaround = ["(?=", "(?!", "(?<=", "(?<!"].contains { pattern.contains($0) }
        let backreference = pattern.contains(/\\[1-9]/)
        return lookaround || backreference ? "; backreferences and lookaround are not supported (RE2 runs in linear time)" : ""
    }

    static func numberValue(_ node: JSONNode) throws -> PropertyValue {
        switch node.value {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        default: throw node.fail("expected a number, found \(node.value.typeName)")
        }
    }

    static func nonNegativeSeconds(_ node: JSONNode, what: String) throws -> Double {
        let v = try node.number(what: what)
        guard v >= 0 else { throw node.fail("\(what) must be zero or more seconds, found \(JSONValue.format(v))") }
        return v
    }

    /// Epoch seconds given as a number, an ISO-8601 string or `{"$date": …}`.
    static func timestamp(_ node: JSONNode, what: String) throws -> Double {
        switch node.value {
        case .int, .double: return try node.epochSeconds(what: what)
        case .string(let s):
            guard let t = try EventDecoder.isoDate(node, s) else { throw node.fail("\"\(s)\" is not a strict ISO-8601 timestamp (2026-11-22T10:00:00Z)") }
            return t
        case .object:
            if let t = try EventDecoder.dollarDate(node) { return t }
            throw node.fail("expected \(what), found an object")
        default:
            throw node.fail("expected \(what), found \(node.value.typeName)")
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
            for m in extras.members {
                message.extras[m.key] = try n.child(m.key, m.value).string(what: "an extras value")
            }
        }
        return message
    }
}
