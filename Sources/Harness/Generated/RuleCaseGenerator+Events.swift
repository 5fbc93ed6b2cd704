import Foundation
import TriggerKit
import Workload

/// Events aimed at the generated triggers: most take one condition and carry, for each of its
/// filters, a value at or one step beside the filter's constant (or missing, null, mistyped).
extension RuleCaseGenerator {
    mutating func event() -> JSONValue {
        let target = !targets.isEmpty && rng.chance(0.85) ? targets[rng.below(targets.count)] : nil
        var t = nearTime()
        if let window = target?.window, rng.chance(0.7) {
            let edges = [window.0, window.1].compactMap { $0 }.flatMap { [$0, $0.nextUp, $0.nextDown] }
            if !edges.isEmpty { t = edges[rng.below(edges.count)] }
        }
        var members: [(key: String, value: JSONValue)] = [("time", timeValue(t))]
        switch target?.kind ?? ["custom_event", "purchase", "session_start", "push_click"][rng.below(4)] {
        case "custom_event":
            let name = target?.key.stringValue ?? Self.names[rng.below(Self.names.count)]
            members += [("type", .string("custom_event")), ("name", .string(normalForm(name)))]
        case "purchase":
            let product = target?.key.stringValue ?? Self.products[rng.below(Self.products.count)]
            members += [("type", .string("purchase")), ("product_id", .string(normalForm(product)))]
        case "session_start":
            return .object(members + [("type", .string("session_start"))])
        default:
            let campaign = target?.key.stringValue ?? Self.campaigns[rng.below(Self.campaigns.count)]
            members += [("type", .string("push_click")), ("campaign_id", .string(normalForm(campaign)))]
            let action = rng.chance(0.7) ? target?.action : (rng.chance(0.5) ? Self.actions[rng.below(Self.actions.count)] : nil)
            if let action { members.append(("action_id", .string(action))) }
            return .object(members)
        }
        var properties: [(key: String, value: JSONValue)] = []
        func set(_ key: String, _ value: JSONValue) {
            if let k = properties.firstIndex(where: { $0.key == key }) { properties[k].value = value } else { properties.append((key, value)) }
        }
        for (key, filter) in target?.constants ?? [] where rng.chance(0.9) {
            set(key, rng.chance(0.88) ? value(for: filter, at: t) : offType())
        }
        if shape == .literals, rng.chance(0.9) { set("s", .string(literalText())) }
        for _ in 0..<rng.between(0, 2) {
            let key = Self.keys[rng.below(Self.keys.count)]
            set(key, rng.chance(0.8) ? anyValue(key: key, at: t) : offType())
        }
        if shape == .limits, rng.chance(0.4) {
            // Up to the 256 properties an event may hold, padding first so a port reading a prefix misses the rest.
            let padding = Self.paddingKeys.prefix(256 - properties.count).map { (key: $0, value: JSONValue.int(0)) }
            properties = padding + properties
        }
        members.append(("properties", .object(nested(properties))))
        return .object(members)
    }

    /// The name as written, or its other Unicode normal form (canonically the same name).
    mutating func normalForm(_ s: String) -> String {
        switch rng.below(3) {
        case 0: return s.decomposedStringWithCanonicalMapping
        case 1: return s.precomposedStringWithCanonicalMapping
        default: return s
        }
    }

    /// `u.t` written as `{"u":{"t":…}}` half the time: flattening must give the same property.
    mutating func nested(_ properties: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard let k = properties.firstIndex(where: { $0.key == "u.t" }), rng.chance(0.5),
              !properties.contains(where: { $0.key == "u" }) else { return properties }
        var out = properties
        out[k] = ("u", .object([("t", properties[k].value)]))
        return out
    }

    /// A value for `filter`'s property at or beside its constant, at event time `t`.
    mutating func value(for filter: JSONValue, at t: Double) -> JSONValue {
        let constant = filter["value"] ?? .null
        let member = constant.arrayItems.flatMap { $0.isEmpty ? nil : $0[rng.below($0.count)] } ?? constant
        let op = filter["op"]?.stringValue ?? ""
        switch filter["type"]?.stringValue ?? "" {
        case "number": return member == .null ? EdgeValues.number(&rng) : EdgeValues.number(near: member, &rng)
        case "string":
            if op.hasSuffix("regex"), let pattern = member.stringValue, rng.chance(0.6) {
                let literal = pattern.filter { !"^$\\[]{}()*+?|.".contains($0) }
                return .string(EdgeValues.string(near: literal, &rng))
            }
            return .string(member.stringValue.map { EdgeValues.string(near: $0, &rng) } ?? EdgeValues.string(&rng))
        case "boolean": return .bool(member == .bool(true) ? rng.chance(0.7) : rng.chance(0.3))
        default: return date(for: op, constant: member, at: t)
        }
    }

    /// A date property: at, or a last bit beside, the constant (`before`, `after`) or the event time
    /// shifted by the duration (relative operators).
    mutating func date(for op: String, constant: JSONValue, at t: Double) -> JSONValue {
        if case .string(let iso) = constant, rng.chance(0.5) { return .string(iso) }
        var d: Double
        switch op {
        case "before", "after": d = constant.stringValue.flatMap(ISO8601.parse) ?? constant.number ?? t
        case "less_than_seconds_ago", "more_than_seconds_ago": d = t - (constant.number ?? 0)
        case "in_less_than_seconds", "in_more_than_seconds": d = t + (constant.number ?? 0)
        default: return anyValue(key: "d", at: t)
        }
        switch rng.below(4) {
        case 0: d = d.nextUp
        case 1: d = d.nextDown
        default: break
        }
        guard d.isFinite, d.magnitude <= 9007199254740992 else { return dollarDate(t) }
        return rng.chance(0.15) ? .string(EdgeValues.isoDates[rng.below(EdgeValues.isoDates.count)]) : dollarDate(d)
    }

    func dollarDate(_ d: Double) -> JSONValue { .object([("$date", timeValue(d))]) }

    /// A value of the key's usual type, not aimed at any constant.
    mutating func anyValue(key: String, at t: Double) -> JSONValue {
        switch Self.homeType[key] ?? ["number", "string", "boolean", "date"][rng.below(4)] {
        case "number": return EdgeValues.number(&rng)
        case "string": return .string(EdgeValues.string(&rng))
        case "boolean": return .bool(rng.chance(0.5))
        default: return rng.chance(0.5) ? .string(EdgeValues.isoDates[rng.below(EdgeValues.isoDates.count)]) : dollarDate(nearTime())
        }
    }

    /// Null, or a value of a kind filters of another type must treat as missing.
    mutating func offType() -> JSONValue {
        [JSONValue.null, .string("true"), .string("1"), .bool(true), .int(1), .double(-0.0), dollarDate(time),
         .string("2026-11-22T10:00:00Z")][rng.below(8)]
    }
}
