import Foundation
import TriggerKit

/// Builds the corpus and event stream of a `WorkloadSpec`, deterministically: the same spec and seed
/// give the same corpus and events, byte for byte, on any machine (xoshiro256**, no hashing order).
public enum WorkloadGenerator {
    /// How a schema property's values are drawn; every operator is selective on these distributions.
    enum Values {
        case ints(ClosedRange<Int64>)
        /// Multiples of `step` in the range (quantised so equality sometimes holds).
        case doubles(ClosedRange<Double>, step: Double)
        case pool(prefix: String, count: Int)
        case choice([String])
        case bool
        /// Dates up to `past` seconds before and `future` seconds after the event time.
        case dates(past: Double, future: Double)

        var type: PropertyType {
            switch self {
            case .ints, .doubles: return .number
            case .pool, .choice: return .string
            case .bool: return .boolean
            case .dates: return .date
            }
        }
    }

    static let schema: [(key: String, values: Values)] = [
        ("price", .doubles(0...1000, step: 0.5)), ("quantity", .ints(1...20)), ("level", .ints(0...100)),
        ("score", .doubles(0...1, step: 0.01)), ("sku", .pool(prefix: "sku-", count: 500)),
        ("category", .pool(prefix: "cat-", count: 20)), ("country", .pool(prefix: "cc", count: 30)),
        ("plan", .choice(["free", "silver", "gold", "platinum"])), ("vip", .bool), ("beta", .bool),
        ("signup", .dates(past: 90 * 86400, future: 0)), ("expires", .dates(past: 30 * 86400, future: 30 * 86400)),
        ("user.tier", .choice(["bronze", "Silver", "GOLD"])), ("user.age", .ints(13...90)), ("cart.items", .ints(0...50)),
        ("cart.total", .doubles(0...5000, step: 0.25)), ("screen", .pool(prefix: "screen-", count: 40)),
        ("ab_group", .choice(["A", "B", "C"])), ("push_enabled", .bool), ("rating", .ints(1...5)),
    ]
    /// The property every event of the crowded name carries, and its cardinality.
    static let crowdedKey = "item_id"
    static let crowdedCardinality: Int64 = 5000
    static let startTime = 1_767_225_600.0  // 2026-01-01T00:00:00Z
    static let products = 200, campaigns = 50
    static let actions = ["accept", "decline", "yes", "no", "confirm", "cancel", "more"]

    static func eventName(_ rank: Int) -> String { "ev-\(rank)" }

    /// The time span the events cover, estimated for placing trigger windows and date constants.
    static func span(_ spec: WorkloadSpec) -> Double { Double(spec.events) }

    // MARK: - Corpus

    /// The corpus as a `trigger-corpus/1` JSON document.
    package static func corpusJSON(_ spec: WorkloadSpec) -> JSONValue {
        var triggers: [JSONValue] = []
        triggers.reserveCapacity(spec.triggers + spec.crowdedTriggers)
        forEachTrigger(spec) { triggers.append($0) }
        return .object(corpusHeader(spec) + [("triggers", .array(triggers))])
    }

    /// The members of the corpus document before its list of triggers, which is its last member
    /// (so the document can be written trigger by trigger).
    static func corpusHeader(_ spec: WorkloadSpec) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [("format", .string(CorpusDecoder.format))]
        if spec.shape != nil || (spec.routing == nil && spec.pubsub == nil) {
            members.append(("settings", .object([("minimum_trigger_interval", .int(30))])))
        }
        return members
    }

    /// Each trigger of the spec's corpus, in order, made one at a time: a corpus of a million is never
    /// held whole.
    package static func forEachTrigger(_ spec: WorkloadSpec, _ body: (JSONValue) throws -> Void) rethrows {
        if let shape = spec.shape { return try TwinCorpus(shape, seed: spec.seed).forEachTrigger(triggers: spec.triggers, seed: spec.seed, body) }
        if let routing = spec.routing { return try routing.forEachTrigger(triggers: spec.triggers, body) }
        if let pubsub = spec.pubsub { return try pubsub.forEachTrigger(triggers: spec.triggers, seed: spec.seed, body) }
        var rng = DeterministicRandom(seed: spec.seed &* 0x9E37_79B9 &+ 1)
        let names = ZipfSampler(count: spec.eventNames, exponent: spec.zipf)
        let productRanks = ZipfSampler(count: products, exponent: 1.0)
        // Trigger authors pick events by what matters to them, not by how often apps send them:
        // trigger names follow Zipf over a fixed shuffle of the names, independent of event popularity.
        var permutation = Array(0..<spec.eventNames)
        for k in permutation.indices.reversed() where k > 0 { permutation.swapAt(k, rng.below(k + 1)) }
        for t in 0..<spec.triggers {
            let conditionCount = rng.chance(0.8) ? 1 : (rng.chance(0.75) ? 2 : 3)
            var conditions: [JSONValue] = []
            for _ in 0..<conditionCount {
                conditions.append(condition(spec, &rng, names: names, permutation: permutation, products: productRanks))
            }
            var members: [(key: String, value: JSONValue)] = [("id", .string("t\(t)")), ("priority", .int(Int64(rng.below(10))))]
            if rng.chance(0.1) {
                let a = startTime + rng.unit() * span(spec)
                members.append(("start_time", .double(a.rounded())))
                members.append(("end_time", .double((a + rng.unit() * span(spec) / 2).rounded())))
            }
            members.append(("re_eligibility", .int([-1, 0, 3600][rng.below(3)])))
            members.append(("conditions", .array(conditions)))
            try body(.object(members))
        }
        for c in 0..<spec.crowdedTriggers {
            try body(crowdedTrigger(c, &rng))
        }
    }

    /// The corpus, decoded and validated exactly as a file would be (from its bytes: a tree of a
    /// million triggers would take many times the document).
    public static func corpus(_ spec: WorkloadSpec) throws -> TriggerSet { try corpusAndBytes(spec).set }

    /// The corpus decoded and its bytes, generated and decoded within one `MemoryAllowance`. A refusal
    /// names the workload and what to lower, not a place in a document the user never saw.
    package static func corpusAndBytes(_ spec: WorkloadSpec) throws -> (set: TriggerSet, bytes: [UInt8]) {
        let allowance = MemoryAllowance()
        do {
            let bytes = try corpusBytes(spec, allowance: allowance)
            return (try CorpusDecoder.decode(bytes: bytes, allowance: allowance), bytes)
        } catch var error as InputError where error.file == nil {
            error.file = "workload \(spec.name)"
            if error.path.hasPrefix("line ") { error.path = "triggers" }
            if error.reason.hasSuffix("; " + CorpusDecoder.memoryFix) {
                error.reason = String(error.reason.dropLast(CorpusDecoder.memoryFix.count)) + "lower triggers"
            }
            throw error
        }
    }

    static func condition(_ spec: WorkloadSpec, _ rng: inout DeterministicRandom, names: ZipfSampler,
                          permutation: [Int], products: ZipfSampler) -> JSONValue {
        switch pickKind(spec, &rng) {
        case .customEvent:
            return .object([("type", .string("custom_event")), ("event_name", .string(eventName(permutation[names.sample(&rng)]))),
                            ("filters", filters(spec, &rng))])
        case .purchase:
            let product: JSONValue = rng.chance(0.3) ? .null : .string("prod-\(products.sample(&rng))")
            return .object([("type", .string("purchase")), ("product_id", product), ("filters", filters(spec, &rng))])
        case .sessionStart:
            return .object([("type", .string("session_start"))])
        case .pushClick:
            var members: [(key: String, value: JSONValue)] = [("type", .string("push_click"))]
            members.append(("campaign_id", rng.chance(0.2) ? .null : .string("cmp-\(rng.below(campaigns))")))
            if rng.chance(0.3) { members.append(("action_id", .string(actions[rng.below(actions.count)]))) }
            return .object(members)
        }
    }

    static func pickKind(_ spec: WorkloadSpec, _ rng: inout DeterministicRandom) -> EventKindCode {
        KindPicker(spec).pick(&rng)
    }

    /// The kind mix of a spec as plain arrays, so drawing a kind per event hashes no strings.
    /// Draws exactly as before (one `unit()`, shares subtracted in the same order), so output is unchanged.
    struct KindPicker {
        static let order: [(String, EventKindCode)] = [("custom_event", .customEvent), ("purchase", .purchase),
                                                       ("session_start", .sessionStart), ("push_click", .pushClick)]
        let shares: [Double]
        let total: Double
        let fallback: EventKindCode

        init(_ spec: WorkloadSpec) {
            shares = Self.order.map { spec.kinds[$0.0] ?? 0 }
            total = shares.reduce(0.0, +)
            fallback = Self.order[shares.lastIndex { $0 > 0 }!].1
        }

        func pick(_ rng: inout DeterministicRandom) -> EventKindCode {
            var u = rng.unit() * total
            for k in 0..<shares.count {
                if u < shares[k] { return Self.order[k].1 }
                u -= shares[k]
            }
            return fallback
        }
    }

    static func filters(_ spec: WorkloadSpec, _ rng: inout DeterministicRandom) -> JSONValue {
        let n = rng.between(spec.filtersPerTrigger.lowerBound, spec.filtersPerTrigger.upperBound)
        var clauses: [JSONValue] = []
        var made = 0
        while made < n {
            let width = min(n - made, rng.chance(0.7) ? 1 : 2)
            clauses.append(.array((0..<width).map { _ in filter(spec, &rng) }))
            made += width
        }
        return .array(clauses)
    }

    static func filter(_ spec: WorkloadSpec, _ rng: inout DeterministicRandom) -> JSONValue {
        if rng.chance(spec.regexShare) {
            let stringFields = schema.filter { $0.values.type == .string }
            let field = stringFields[rng.below(stringFields.count)]
            let sample = stringValue(field.values, &rng)
            let start = rng.below(max(sample.count - 1, 1))
            let piece = String(sample.dropFirst(start).prefix(rng.between(2, 4)))
            let pattern = (rng.chance(0.3) ? "^" : "") + NSRegularExpression.escapedPattern(for: piece)
            return filterJSON(field.key, "string", rng.chance(0.8) ? "regex" : "not_regex", .string(pattern))
        }
        let field = schema[rng.below(schema.count)]
        var type = field.values.type
        if rng.chance(0.05) { type = PropertyType.allCases[rng.below(4)] }  // a mistyped filter sees "missing"
        let ops = FilterOperator.allowed(for: type).filter { $0 != .regex && $0 != .notRegex }
        // Existence tests are rarer in real corpora than comparisons.
        var op = ops[rng.below(ops.count)]
        if (op == .exists || op == .notExists) && rng.chance(0.6) { op = ops[0] }
        if op == .exists || op == .notExists { return filterJSON(field.key, type.rawValue, op.rawValue, nil) }
        let values = type == field.values.type ? field.values : defaultValues(type)
        let value: JSONValue
        switch (type, op) {
        case (.number, .in), (.number, .notIn), (.string, .in), (.string, .notIn):
            value = .array((0..<rng.between(1, 4)).map { _ in sampleJSON(values, &rng, time: startTime) })
        case (.date, .before), (.date, .after):
            value = .double((startTime + rng.unit() * span(spec)).rounded())
        case (.date, _):
            value = .int(Int64(rng.between(3600, 60 * 86400)))
        default:
            value = sampleJSON(values, &rng, time: startTime)
        }
        return filterJSON(field.key, type.rawValue, op.rawValue, value)
    }

    static func defaultValues(_ type: PropertyType) -> Values {
        schema.first { $0.values.type == type }!.values
    }

    static func filterJSON(_ property: String, _ type: String, _ op: String, _ value: JSONValue?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("property", .string(property)), ("type", .string(type)), ("op", .string(op))]
        if let value { members.append(("value", value)) }
        return .object(members)
    }

    static func crowdedTrigger(_ c: Int, _ rng: inout DeterministicRandom) -> JSONValue {
        func f(_ p: String, _ op: String, _ v: JSONValue) -> JSONValue { .array([filterJSON(p, "number", op, v)]) }
        let threshold = JSONValue.double((rng.unit() * 2000).rounded() / 2)
        var clauses: [JSONValue]
        if rng.chance(0.02) {
            // A narrow price band: range predicates only.
            let lo = (rng.unit() * 1990).rounded()
            clauses = [f("price", "gte", .double(lo)), f("price", "lt", .double(lo + 5))]
        } else {
            clauses = [f(crowdedKey, "eq", .int(Int64(rng.below(Int(crowdedCardinality))))),
                       f("price", rng.chance(0.5) ? "gt" : "lte", threshold)]
        }
        if rng.chance(0.2) { clauses.append(.array([filterJSON("vip", "boolean", "ne", .bool(false))])) }
        return .object([("id", .string("crowded-\(c)")), ("priority", .int(Int64(rng.below(10)))), ("re_eligibility", .int(0)),
                        ("conditions", .array([.object([("type", .string("custom_event")), ("event_name", .string(eventName(0))),
                                                        ("filters", .array(clauses))])]))])
    }

    static func stringValue(_ values: Values, _ rng: inout DeterministicRandom) -> String {
        switch values {
        case .pool(let prefix, let count): return prefix + String(rng.below(count))
        case .choice(let list): return list[rng.below(list.count)]
        default: return ""
        }
    }

    static func sampleJSON(_ values: Values, _ rng: inout DeterministicRandom, time: Double) -> JSONValue {
        switch sample(values, &rng, time: time) {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .bool(let b): return .bool(b)
        case .date(let d): return .double(d)
        case .null: return .null
        }
    }

    static func sample(_ values: Values, _ rng: inout DeterministicRandom, time: Double) -> PropertyValue {
        switch values {
        case .ints(let r): return .int(r.lowerBound + Int64(rng.below(Int(r.upperBound - r.lowerBound + 1))))
        case .doubles(let r, let step):
            return .double(r.lowerBound + Double(rng.below(Int((r.upperBound - r.lowerBound) / step) + 1)) * step)
        case .pool, .choice: return .string(stringValue(values, &rng))
        case .bool: return .bool(rng.chance(0.5))
        case .dates(let past, let future): return .date((time - past + rng.unit() * (past + future)).rounded())
        }
    }
}
