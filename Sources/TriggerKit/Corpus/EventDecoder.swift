/// Decodes one JSON event (a JSONL line) into a validated `Event` (docs/semantics.md, "Events"): typed properties,
/// nested objects flattened to dot paths, ISO-8601 strings and `{"$date": …}` as dates.
public enum EventDecoder {
    public static let maxProperties = 256
    public static let maxStringBytes = 255
    public static let maxNameBytes = 255
    /// Longest accepted JSONL line.
    public static let maxLineBytes = 1 << 20

    /// The event kinds an input line may name.
    public static let eventTypes: Set<String> = ["custom_event", "purchase", "session_start", "push_click"]

    /// Parses and decodes one line of text.
    public static func decode(line: [UInt8], categories: ActionCategories = .standard) throws -> Event {
        try decode(parseLine(line), categories: categories)
    }

    /// Parses one JSONL line with the line-length limit; syntax errors become `InputError`s.
    package static func parseLine(_ line: [UInt8]) throws -> JSONValue {
        guard line.count <= maxLineBytes else {
            throw InputError(path: "$", reason: "line is \(line.count) bytes; at most \(maxLineBytes) are allowed")
        }
        do {
            return try JSONValue.parse(line)
        } catch {
            throw InputError(path: "column \(error.column)", reason: "invalid JSON: \(error.reason)")
        }
    }

    /// Decodes a parsed event object. Unknown top-level keys are ignored (apps attach metadata);
    /// everything that is read is validated.
    /// `categories` are the action-button categories a push payload may name.
    package static func decode(_ json: JSONValue, categories: ActionCategories = .standard) throws -> Event {
        try decodeReportingWarning(json, categories: categories).event
    }

    /// `decode`, and what an accepted event's input left unusual: a push naming an action-button category
    /// the app has not registered, or a button without a category (the push open counts either way).
    package static func decodeReportingWarning(_ json: JSONValue, categories: ActionCategories = .standard) throws
        -> (event: Event, warning: String?) {
        var warning: String?
        let event = try decode(json, categories: categories, warning: &warning)
        return (event, warning)
    }

    static func decode(_ json: JSONValue, categories: ActionCategories, warning: inout String?) throws -> Event {
        let obj = try JSONNode(value: json, path: "").object(what: "an event")
        let timeNode = try obj.required("time", what: "seconds since the Unix epoch")
        let time = try timeNode.epochSeconds(what: "the event time in epoch seconds")
        let typeNode = try obj.required("type", what: "custom_event, purchase, session_start or push_click")
        let type = try typeNode.string(what: "the event type")
        switch type {
        case "custom_event":
            let nameNode = try obj.required("name", what: "the custom event's name")
            let name = try nameNode.string(what: "the event name")
            guard !name.isEmpty, name.utf8.count <= maxNameBytes else {
                throw nameNode.fail("event name must be 1–\(maxNameBytes) UTF-8 bytes, found \(name.utf8.count)")
            }
            return Event(time: time, kind: .customEvent(name: name), properties: try properties(obj))
        case "purchase":
            let idNode = try obj.required("product_id", what: "the purchased product's id")
            let product = try idNode.string(what: "the product id")
            guard !product.isEmpty, product.utf8.count <= maxNameBytes else {
                throw idNode.fail("product id must be 1–\(maxNameBytes) UTF-8 bytes, found \(product.utf8.count)")
            }
            return Event(time: time, kind: .purchase(productID: product), properties: try properties(obj))
        case "session_start":
            return Event(time: time, kind: .sessionStart)
        case "push_click":
            if let payload = obj.optionalNonNull("payload") {
                if obj.optionalNonNull("campaign_id") != nil || obj.optionalNonNull("action_id") != nil {
                    throw payload.fail("give either campaign_id/action_id or payload, not both")
                }
                let push = try PushPayloadDecoder.decode(payload, categories: categories)
                warning = push.warning
                return Event(time: time, kind: .pushClick(campaignID: push.campaignID, actionID: push.actionID),
                             properties: push.properties)
            }
            var campaign: String?
            var action: String?
            if let n = obj.optionalNonNull("campaign_id") {
                campaign = try n.string(what: "the campaign id")
                guard !campaign!.isEmpty, campaign!.utf8.count <= maxNameBytes else {
                    throw n.fail("campaign id must be 1–\(maxNameBytes) UTF-8 bytes, found \(campaign!.utf8.count)")
                }
            }
            if let n = obj.optionalNonNull("action_id") {
                action = try n.string(what: "the tapped action button's id")
                guard !action!.isEmpty else { throw n.fail("action id must not be empty; omit it for a plain tap") }
                guard action!.utf8.count <= maxNameBytes else {
                    throw n.fail("action id is \(action!.utf8.count) UTF-8 bytes; at most \(maxNameBytes) are allowed")
                }
            }
            guard campaign != nil else {
                throw obj.node.fail("push_click needs a campaign_id or a raw payload")
            }
            return Event(time: time, kind: .pushClick(campaignID: campaign, actionID: action))
        default:
            throw typeNode.fail("unknown event type \"\(type)\"; expected custom_event, purchase, session_start or push_click")
        }
    }

    static func properties(_ obj: JSONObjectReader) throws -> [String: PropertyValue] {
        guard let node = obj.optionalNonNull("properties") else { return [:] }
        var out: [String: PropertyValue] = [:]
        try flatten(node, prefix: "", into: &out)
        return out
    }

    /// Flattens nested objects to dot paths; refuses arrays, over-long strings and too many properties.
    static func flatten(_ node: JSONNode, prefix: String, into out: inout [String: PropertyValue]) throws {
        let obj = try node.object(what: "properties")
        for (name, child) in obj.memberNodes {
            let key = prefix.isEmpty ? name : prefix + "." + name
            guard !name.isEmpty else { throw child.fail("property names must not be empty") }
            let value: PropertyValue
            switch child.value {
            case .null: value = .null
            case .bool(let b): value = .bool(b)
            case .int(let i): value = .int(i)
            case .double(let d): value = .double(d)
            case .string(let s):
                guard s.utf8.count <= maxStringBytes else {
                    throw child.fail("string property is \(s.utf8.count) UTF-8 bytes; at most \(maxStringBytes) are allowed")
                }
                if let t = ISO8601.parse(s) { value = .date(t) } else { value = .string(s) }
            case .object:
                if let t = try dollarDate(child) {
                    value = .date(t)
                } else {
                    try flatten(child, prefix: key, into: &out)
                    continue
                }
            case .array:
                throw child.fail("array property values are not supported; use a number, string, boolean, date or null")
            }
            if let earlier = out.index(forKey: key) {
                // Keys compare canonically: the earlier one may be spelled otherwise (é, or e + U+0301).
                let spelled = Array(out[earlier].key.utf8) == Array(key.utf8) ? "" : ", in two canonically equivalent spellings"
                throw child.fail("property \"\(key)\" is given twice (once nested, once with a dot in its name\(spelled))")
            }
            out[key] = value
            guard out.count <= maxProperties else {
                throw child.fail("more than \(maxProperties) properties (after flattening nested objects)")
            }
        }
    }

    /// A replay control line's `time`, held to an event time's bounds (a number within ±2^53).
    package static func controlTime(_ value: JSONValue?) throws -> Double {
        guard let value else { throw InputError(path: "time", reason: "missing \"time\" (seconds since the Unix epoch)") }
        return try JSONNode(value: value, path: "time").epochSeconds(what: "the line's time in epoch seconds")
    }

    /// A date written as a string: strict ISO-8601 and, like every string, at most 255 bytes (a longer
    /// one would carry some 230 fraction digits, far past what a double holds).
    static func isoDate(_ node: JSONNode, _ s: String) throws -> Double? {
        guard s.utf8.count <= maxStringBytes else {
            throw node.fail("date string is \(s.utf8.count) UTF-8 bytes; at most \(maxStringBytes) are allowed")
        }
        return ISO8601.parse(s)
    }

    /// `{"$date": 1732270000}` (or an ISO-8601 string) as epoch seconds; nil when the object is not of that form.
    static func dollarDate(_ node: JSONNode) throws -> Double? {
        guard node.kind == .object else { return nil }
        let obj = try node.object(what: "a date")
        guard obj.count == 1, let inner = obj.optional("$date") else { return nil }
        switch inner.kind {
        case .int, .double: return try inner.epochSeconds(what: "a date in epoch seconds")
        case .string:
            let s = try inner.string(what: "a date")
            guard let t = try isoDate(inner, s) else { throw inner.fail("\"\(s)\" is not a strict ISO-8601 timestamp") }
            return t
        default: throw inner.fail("$date must be epoch seconds or an ISO-8601 string, found \(inner.typeName)")
        }
    }
}
