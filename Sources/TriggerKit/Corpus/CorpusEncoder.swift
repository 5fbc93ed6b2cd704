/// A trigger set written back as a `trigger-corpus/1` document that `CorpusDecoder` reads as the same
/// set. A set a delta made has no file of its own; a plugin that reads the corpus JSON itself is handed
/// this, so that it decodes the triggers its flat arrays describe.
///
/// Every field is written, defaults included; a filter's numeric constant keeps its kind (`3.0` stays a
/// double); a time or duration is written as an integer when it is one (a double at 2^53 is refused
/// as a time, since it may have been rounded from above); custom action categories follow the four
/// standard ones.
public enum CorpusEncoder {
    public static func encode(_ set: TriggerSet) -> [UInt8] { json(set).serializedBytes(keepingDoubles: true) }

    package static func json(_ set: TriggerSet) -> JSONValue {
        var settings: [(key: String, value: JSONValue)] = [("minimum_trigger_interval", number(set.minimumTriggerInterval))]
        let custom = set.actionCategories.categories.dropFirst(ActionCategories.defaults.count)
        if !custom.isEmpty {
            settings.append(("action_categories", .array(custom.map { c in
                .object([("id", .string(c.id)), ("buttons", .array(c.buttons.map { .object([("id", .string($0.id)), ("title", .string($0.title))]) }))])
            })))
        }
        return .object([("format", .string(CorpusDecoder.format)), ("settings", .object(settings)), ("triggers", .array(set.triggers.map(json)))])
    }

    static func json(_ t: Trigger) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(t.id)), ("priority", number(t.priority))]
        if let s = t.startTime { members.append(("start_time", number(s))) }
        if let e = t.endTime { members.append(("end_time", number(e))) }
        members.append(("delay", number(t.delay)))
        if let timeout = t.timeout { members.append(("timeout", number(timeout))) }
        members.append(("re_eligibility", number(t.reEligibility)))
        if let m = t.minSecondsSinceLastTrigger { members.append(("min_seconds_since_last_trigger", number(m))) }
        members.append(("conditions", .array(t.conditions.map(json))))
        let m = t.message
        members.append(("message", .object([
            ("type", .string(m.type)), ("orientation", .string(m.orientation.rawValue)), ("assets", .array(m.assets.map(JSONValue.string))),
            ("extras", .object(m.extras.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])))
        return .object(members)
    }

    static func json(_ c: Condition) -> JSONValue {
        switch c {
        case .customEvent(let name, let filters):
            return .object([("type", .string("custom_event")), ("event_name", .string(name)), ("filters", json(filters))])
        case .purchase(let product, let filters):
            return .object([("type", .string("purchase")), ("product_id", product.map(JSONValue.string) ?? .null), ("filters", json(filters))])
        case .sessionStart:
            return .object([("type", .string("session_start"))])
        case .pushClick(let campaign, let action):
            var members: [(key: String, value: JSONValue)] = [("type", .string("push_click")), ("campaign_id", campaign.map(JSONValue.string) ?? .null)]
            if let action { members.append(("action_id", .string(action))) }
            return .object(members)
        }
    }

    static func json(_ cnf: FilterCNF) -> JSONValue {
        .array(cnf.clauses.map { clause in .array(clause.map(json)) })
    }

    static func json(_ f: Filter) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("property", .string(f.property)), ("type", .string(f.type.rawValue)), ("op", .string(f.op.rawValue))]
        let value: JSONValue? = switch f.operand {
        case .none: nil
        case .number(let n): json(n)
        case .numbers(let list): .array(list.map(json))
        case .string(let s): .string(s)
        case .strings(let list): .array(list.map(JSONValue.string))
        case .bool(let b): .bool(b)
        case .seconds(let s): number(s)
        case .regex(let re): .string(re.pattern)
        }
        if let value { members.append(("value", value)) }
        return .object(members)
    }

    /// A time, duration or priority: an integer when it is a whole number a double holds exactly.
    static func number(_ d: Double) -> JSONValue {
        d == d.rounded(.towardZero) && d.magnitude <= 9_007_199_254_740_992 ? .int(Int64(d)) : .double(d)
    }

    /// A numeric constant as it was read: an integer stays an integer, a double a double.
    static func json(_ n: PropertyValue) -> JSONValue {
        switch n {
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        // Not produced by the decoder for a number operand; written as what it holds.
        case .string(let s): .string(s)
        case .bool(let b): .bool(b)
        case .date(let d): .double(d)
        case .null: .null
        }
    }
}
