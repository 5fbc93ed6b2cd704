import Foundation
import TriggerKit
import Workload

/// Builds `RuleCase`s aimed at the boundaries of docs/semantics.md's rules: filter constants and event
/// values drawn from `EdgeValues` and from each other's neighbours, windows on the event times, the
/// stated limits (64 filters in a clause, 64 conditions, 256 properties, long lists, over 4,096
/// triggers), and bucket shapes that engage every path of `predicate-index` (an equality crowd, bands,
/// one-sided ranges, a counted bucket, any-purchase and any-push companions, a crowd of regex literals,
/// a bucket of range subscriptions cut into cells). One seed and round
/// always give the same case.
package struct RuleCaseGenerator {
    /// What a round's corpus is shaped around.
    package enum Shape: Int, CaseIterable, Sendable {
        case mixed, crowd, counted, limits, manyTriggers, companions, literals, ranges
    }

    var rng: DeterministicRandom
    let shape: Shape
    let time: Double
    var triggers: [JSONValue] = []
    /// Per trigger: one target per condition: the event it wants and the constants its filters name.
    var targets: [Target] = []
    /// The `literals` shape's texts, one per regex trigger.
    var literalTexts: [String] = []

    struct Target {
        var kind: String
        var key: JSONValue
        var action: String?
        var constants: [(key: String, filter: JSONValue)]
        var window: (Double?, Double?)
    }

    static let names = ["e", "café", "cafe\u{301}", "\u{3A9}", "\u{2126}", "x"]
    static let products = ["p1", "é", "e\u{301}", "p2"]
    static let campaigns = ["c1", "c2", "\u{C5}"]
    static let actions = ["a", "b", "yes"]
    static let keys = ["n", "s", "b", "d", "u.t", "m", "k9"]
    static let homeType = ["n": "number", "s": "string", "b": "boolean", "d": "date"]
    static let operators: [String: [String]] = [
        "number": ["eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "exists", "not_exists"],
        "string": ["eq", "ne", "regex", "not_regex", "in", "not_in", "exists", "not_exists"],
        "boolean": ["eq", "ne", "exists", "not_exists"],
        "date": ["before", "after", "less_than_seconds_ago", "more_than_seconds_ago", "in_less_than_seconds",
                 "in_more_than_seconds", "exists", "not_exists"],
    ]

    package static func make(seed: UInt64, round: Int) -> RuleCase {
        var rng = DeterministicRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(round))
        let shape = Shape.allCases[rng.below(Shape.allCases.count)]
        let time = EdgeValues.times[rng.below(EdgeValues.times.count)]
        var generator = RuleCaseGenerator(rng: rng, shape: shape, time: time)
        generator.buildTriggers()
        let events = (0..<(shape == .manyTriggers ? 24 : 48)).map { _ in generator.event() }
        return RuleCase(settings: nil, triggers: generator.triggers, events: events)
    }

    // MARK: - Triggers

    mutating func buildTriggers() {
        switch shape {
        case .mixed:
            for _ in 0..<rng.between(1, 14) { addTrigger(conditions: (0..<rng.between(1, 3)).map { _ in condition() }) }
        case .crowd:
            // An equality crowd on one name (indexed), with bands and one-sided ranges filed beside it.
            let key = rng.chance(0.7) ? "n" : "s"
            for i in 0..<rng.between(31, 90) {
                let value: JSONValue = key == "n" ? (rng.chance(0.5) ? .int(Int64(i)) : EdgeValues.number(&rng)) : .string(rng.chance(0.5) ? "s\(i)" : EdgeValues.string(&rng))
                let op = rng.chance(0.9) ? "eq" : "in"
                addTrigger(conditions: [custom("e", [[filter(key, type: key == "n" ? "number" : "string", op: op, value: op == "in" ? .array([value]) : value)]])])
            }
            for _ in 0..<rng.between(1, 10) { addTrigger(conditions: [custom("e", band())]) }
            for _ in 0..<rng.between(0, 6) { addTrigger(conditions: [condition(name: "e")]) }
        case .literals:
            literalCrowd()
        case .counted:
            for _ in 0..<rng.between(256, 300) { addTrigger(conditions: [condition(name: "e")]) }
        case .limits:
            limits()
        case .ranges:
            rangeSubscriptions()
        case .manyTriggers:
            // Filler a port cannot match, then the triggers that matter past the 4,096th.
            let filler = rng.between(4_097, 4_400)
            for _ in 0..<filler { addTrigger(conditions: [custom("never", [])], targeted: false) }
            for _ in 0..<rng.between(1, 8) { addTrigger(conditions: (0..<rng.between(1, 2)).map { _ in condition() }) }
        case .companions:
            let anyPurchases = rng.chance(0.3) ? rng.between(256, 280) : rng.between(1, 40)
            for _ in 0..<anyPurchases { addTrigger(conditions: [purchase(nil)]) }
            for _ in 0..<rng.between(1, 12) {
                addTrigger(conditions: [rng.chance(0.5) ? purchase(Self.products[rng.below(Self.products.count)]) : push()])
            }
        }
    }

    /// Conjunctions of number comparisons over several keys (`predicate-index` cuts such a bucket into
    /// cells): two-sided, one-sided, strict and equal bounds, sometimes empty intervals, constants from
    /// the edges (integers past 2^53 leave their condition to be evaluated in full) and a few other
    /// conditions beside them.
    mutating func rangeSubscriptions() {
        let keys = ["n", "m", "k9", "u.t"]
        func constant(_ rng: inout DeterministicRandom) -> JSONValue {
            switch rng.below(10) {
            case 0...3: return .int(Int64(rng.between(-40, 40)))
            case 4...6: return .double(Double(rng.between(-160, 160)) / 4)
            default: return EdgeValues.number(&rng)
            }
        }
        for _ in 0..<rng.between(256, 300) {
            var clauses: [[JSONValue]] = []
            for key in keys where rng.chance(0.55) {
                switch rng.below(40) == 0 ? 4 : rng.below(4) {
                case 0, 1:
                    var lo = constant(&rng), hi = constant(&rng)
                    if rng.chance(0.9), let a = lo.number, let b = hi.number, a > b { swap(&lo, &hi) }
                    clauses.append([filter(key, type: "number", op: rng.chance(0.7) ? "gte" : "gt", value: lo)])
                    clauses.append([filter(key, type: "number", op: rng.chance(0.7) ? "lte" : "lt", value: hi)])
                case 2, 3:
                    clauses.append([filter(key, type: "number", op: ["gt", "gte", "lt", "lte"][rng.below(4)], value: constant(&rng))])
                default:
                    clauses.append([filter(key, type: "number", op: "eq", value: constant(&rng))])
                }
            }
            if clauses.isEmpty { clauses.append([filter("n", type: "number", op: "gte", value: constant(&rng))]) }
            addTrigger(conditions: [custom("e", clauses)])
        }
        for _ in 0..<rng.between(0, 24) { addTrigger(conditions: [condition(name: "e")]) }
    }

    /// The 255 padding keys a `limits` event carries beside its own: the corpus names them first, so
    /// they come before every other key in the vocabulary and in a port's property order.
    static let paddingKeys = (0..<255).map { String(format: "a%03d", $0) }

    /// 64 filters in a clause where only the last can hold; 64 conditions where only the last names
    /// the event; clauses past the 8th; a long `in` list whose last member is the value events carry.
    mutating func limits() {
        let mention = stride(from: 0, to: 255, by: 64).map { j in
            Self.paddingKeys[j..<min(j + 64, 255)].map { filter($0, type: "number", op: "eq", value: .int(-1)) }
        }
        addTrigger(conditions: [custom("never", mention)], targeted: false)
        let lastValue = EdgeValues.number(&rng)
        var clauses: [[JSONValue]] = (0..<rng.between(8, 14)).map { k in [filter("n", type: "number", op: "ne", value: .int(-3_000_000 - Int64(k)))] }
        clauses.append([filter("n", type: "number", op: "ne", value: lastValue)])
        addTrigger(conditions: [custom("e", clauses)])
        var wide: [JSONValue] = (0..<63).map { k in filter("n", type: "number", op: "eq", value: .int(-1_000_000 - Int64(k))) }
        wide.append(filter("n", type: "number", op: "eq", value: lastValue))
        addTrigger(conditions: [custom("e", [wide])])
        var many: [JSONValue] = (0..<63).map { k in custom("never\(k)", []) }
        many.append(condition(name: "e"))
        addTrigger(conditions: many)
        let members = (0..<rng.between(9, 64)).map { k in JSONValue.int(Int64(-2_000_000 - k)) } + [lastValue]
        addTrigger(conditions: [custom("e", [[filter("n", type: "number", op: "in", value: .array(members))]])])
        let strings = (0..<rng.between(9, 40)).map { JSONValue.string("z\($0)") } + [.string(EdgeValues.string(&rng))]
        addTrigger(conditions: [custom("e", [[filter("s", type: "string", op: rng.chance(0.5) ? "in" : "not_in", value: .array(strings))]])])
        for _ in 0..<rng.between(0, 6) { addTrigger(conditions: [condition(name: "e")]) }
    }

    mutating func addTrigger(conditions: [JSONValue], targeted: Bool = true) {
        var members: [(key: String, value: JSONValue)] = [("id", .string("t\(triggers.count)")), ("re_eligibility", .int(0))]
        var window: (Double?, Double?) = (nil, nil)
        if targeted, rng.chance(0.25) {
            let a = nearTime(), b = nearTime()
            switch rng.below(4) {
            case 0: window = (a, nil)
            case 1: window = (nil, a)
            default: window = (min(a, b), max(a, b))
            }
            if let s = window.0 { members.append(("start_time", timeValue(s))) }
            if let e = window.1 { members.append(("end_time", timeValue(e))) }
        }
        members.append(("conditions", .array(conditions)))
        triggers.append(.object(members))
        guard targeted else { return }
        for c in conditions { targets.append(target(of: c, window: window)) }
    }

    func target(of condition: JSONValue, window: (Double?, Double?)) -> Target {
        let type = condition["type"]?.stringValue ?? ""
        var constants: [(String, JSONValue)] = []
        for clause in condition["filters"]?.arrayItems ?? [] {
            for f in clause.arrayItems ?? [] { if let key = f["property"]?.stringValue { constants.append((key, f)) } }
        }
        let key = condition["event_name"] ?? condition["product_id"] ?? condition["campaign_id"] ?? .null
        return Target(kind: type, key: key, action: condition["action_id"]?.stringValue, constants: constants, window: window)
    }

    // MARK: - Conditions and filters

    mutating func condition(name: String? = nil) -> JSONValue {
        switch name == nil ? rng.below(10) : 0 {
        case 0...5: return custom(name ?? Self.names[rng.below(Self.names.count)], filters())
        case 6, 7: return purchase(rng.chance(0.3) ? nil : Self.products[rng.below(Self.products.count)])
        case 8: return .object([("type", .string("session_start"))])
        default: return push()
        }
    }

    func custom(_ name: String, _ filters: [[JSONValue]]) -> JSONValue {
        .object([("type", .string("custom_event")), ("event_name", .string(name)), ("filters", .array(filters.map { .array($0) }))])
    }

    mutating func purchase(_ product: String?) -> JSONValue {
        .object([("type", .string("purchase")), ("product_id", product.map { .string($0) } ?? .null), ("filters", .array(filters().map { .array($0) }))])
    }

    mutating func push() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", .string("push_click")),
                                                          ("campaign_id", rng.chance(0.4) ? .null : .string(Self.campaigns[rng.below(Self.campaigns.count)]))]
        if rng.chance(0.5) { members.append(("action_id", .string(Self.actions[rng.below(Self.actions.count)]))) }
        return .object(members)
    }

    /// Conjunctive normal form: usually 0–3 clauses of 1–3 filters; sometimes `[]` or an empty clause.
    mutating func filters() -> [[JSONValue]] {
        if rng.chance(0.05) { return [[]] }
        return (0..<rng.between(0, 3)).map { _ in (0..<rng.between(1, 3)).map { _ in randomFilter() } }
    }

    /// Two clauses bounding one number: the shape `predicate-index` files as a band.
    mutating func band() -> [[JSONValue]] {
        var lo = EdgeValues.number(&rng), hi = EdgeValues.number(&rng)
        if let a = lo.number, let b = hi.number, a > b { swap(&lo, &hi) }
        return [[filter("n", type: "number", op: rng.chance(0.7) ? "gte" : "gt", value: lo)],
                [filter("n", type: "number", op: rng.chance(0.7) ? "lte" : "lt", value: hi)]]
    }

    mutating func randomFilter() -> JSONValue {
        let key = Self.keys[rng.below(Self.keys.count)]
        let types = ["number", "string", "boolean", "date"]
        let type = Self.homeType[key].flatMap { rng.chance(0.85) ? $0 : nil } ?? types[rng.below(types.count)]
        let ops = Self.operators[type]!
        return filter(key, type: type, op: ops[rng.below(ops.count)], value: nil)
    }

    /// A filter; `value` nil draws a constant for the operator.
    mutating func filter(_ key: String, type: String, op: String, value: JSONValue?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("property", .string(key)), ("type", .string(type)), ("op", .string(op))]
        if op != "exists", op != "not_exists" { members.append(("value", value ?? constant(type: type, op: op))) }
        return .object(members)
    }

    mutating func constant(type: String, op: String) -> JSONValue {
        let list = op == "in" || op == "not_in"
        switch type {
        case "number": return list ? .array((0..<rng.between(1, 12)).map { _ in EdgeValues.number(&rng) }) : EdgeValues.number(&rng)
        case "string":
            if op.hasSuffix("regex") { return .string(EdgeValues.patterns[rng.below(EdgeValues.patterns.count)]) }
            return list ? .array((0..<rng.between(1, 12)).map { _ in .string(EdgeValues.string(&rng)) }) : .string(EdgeValues.string(&rng))
        case "boolean": return .bool(rng.chance(0.5))
        default:
            if op == "before" || op == "after" { return EdgeValues.date(near: time, &rng) }
            return .double(EdgeValues.durations[rng.below(EdgeValues.durations.count)])
        }
    }

    // MARK: - Times

    /// The event time or one of its neighbours: a step of the last bit, a second, a fraction.
    mutating func nearTime() -> Double {
        let steps: [Double] = [time, time.nextUp, time.nextDown, time - 1, time + 1, time + 0.5]
        let t = steps[rng.below(steps.count)]
        return t.magnitude <= 9007199254740992 ? t : time
    }

    func timeValue(_ t: Double) -> JSONValue { t == t.rounded() && t.magnitude <= 9007199254740992 ? .int(Int64(t)) : .double(t) }
}
