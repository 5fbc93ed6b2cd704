import TriggerKit

/// Rule sets shaped like a routing engine's benchmark (docs/harness.md, "Routing shapes"): one custom
/// event name, one trigger per rule, and events drawn so that each shape has a known number of
/// matches per event. They stand for what our own generator never makes: many campaigns on one name
/// that share a common equality and differ on one selective key, literal prefixes and wildcards
/// written as regexes, near-misses, and plain equality.
package enum RoutingShape: String, CaseIterable, Sendable {
    /// All rules share `env = prod`; ten share each value of `number`; each adds a wildcard on `name`,
    /// a tag list, `region` present and not `cn`, and `type` in a list. Ten matches per event.
    case mixed
    /// The `mixed` rules; each event breaks one of a rule's tests (the common equality, the selective
    /// one, the wildcard, the tag, the region or the type). No matches.
    case nearMiss = "near-miss"
    /// `path` starts with a literal (`^/api/v1/r17/`). One match per event.
    case prefix
    /// `path` holds two literals in order (`kqzvtr.*bmwxle`, a `*a*b*` wildcard). One match per event.
    case wildcard
    /// One string equality per rule. One match per event.
    case equals

    static let eventName = "request"
    static let regions = ["us", "eu", "ap"], types = ["a", "b", "c"], tags = ["blue", "green", "red"]
    static let names = ["^svc-", "-api$", "^svc-.*-api$", "svc"]

    /// Rules per `number` value in `mixed`.
    static let groupSize = 10

    /// A six-letter word for rule `i` (`salt` tells its words apart): the same on every machine.
    static func word(_ i: Int, salt: UInt64) -> String {
        var rng = DeterministicRandom(seed: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 ^ salt)
        return String(decoding: (0..<6).map { _ in UInt8(ascii: "a") + UInt8(rng.below(26)) }, as: UTF8.self)
    }

    /// Each of the corpus's `triggers` rules, in order, made one at a time.
    func forEachTrigger(triggers: Int, _ body: (JSONValue) throws -> Void) rethrows {
        func filter(_ property: String, _ type: String, _ op: String, _ value: JSONValue?) -> JSONValue {
            .array([WorkloadGenerator.filterJSON(property, type, op, value)])
        }
        func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        let groups = max(1, triggers / Self.groupSize)
        for i in 0..<triggers {
            let clauses: [JSONValue]
            switch self {
            case .mixed, .nearMiss:
                clauses = [filter("env", "string", "eq", .string("prod")),
                           filter("number", "number", "eq", .int(Int64(i % groups))),
                           filter("name", "string", "regex", .string(Self.names[i % Self.names.count])),
                           filter("tag", "string", "in", strings(Self.tags)),
                           filter("region", "string", "exists", nil),
                           filter("region", "string", "ne", .string("cn")),
                           filter("type", "string", "in", strings(Self.types))]
            case .prefix:
                clauses = [filter("path", "string", "regex", .string("^/api/v1/r\(i)/"))]
            case .wildcard:
                clauses = [filter("path", "string", "regex", .string(Self.word(i, salt: 1) + ".*" + Self.word(i, salt: 2)))]
            case .equals:
                clauses = [filter("user", "string", "eq", .string("u\(i)"))]
            }
            try body(.object([("id", .string("rule-\(i)")), ("re_eligibility", .int(0)),
                              ("conditions", .array([.object([("type", .string("custom_event")),
                                                              ("event_name", .string(Self.eventName)),
                                                              ("filters", .array(clauses))])]))]))
        }
    }
}
