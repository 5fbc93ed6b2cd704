// An example TriggerBench plugin in Swift (docs/plugins.md, "Swift"): the simplest correct matcher.
// For every event it walks every trigger and interprets its conditions and filters from the corpus
// the host decoded; the rules are docs/semantics.md, "Matching". Replace `init` with your own build
// step and `match` with your own lookup.
import TriggerBenchPluginKit

@_cdecl("trigger_bench_plugin") public func plugin() -> UnsafeRawPointer { exportPlugin(LinearScan.self) }

struct LinearScan: TriggerMatcher {
    static let name = "swift-linear-scan"
    static let version = "1.0"

    let corpus: Corpus

    init(corpus: Corpus) throws {
        self.corpus = corpus
    }

    /// Recorded beside the plugin's rows in the results (`plugin_facts`).
    func describe() -> KeyValuePairs<String, String> {
        ["triggers scanned per event": String(corpus.triggerCount), "filters": String(corpus.filterCount)]
    }

    func match(_ event: Int, in events: Events, scratch: inout Void, into matches: inout Matches) {
        let time = events.time(event)
        for t in 0..<corpus.triggerCount {
            let trigger = corpus.trigger(t)
            guard trigger.windowContains(time) else { continue }
            for c in trigger.conditions {
                let condition = corpus.condition(c)
                guard applies(condition, event, events) else { continue }
                matches.candidates += 1
                if condition.clauses.allSatisfy({ clauseHolds($0, event, events) }) {
                    matches.append(t)
                    break  // each trigger once, however many of its conditions match
                }
            }
        }
    }

    /// The condition's kind, key and button fit the event (before any filter).
    func applies(_ condition: Condition, _ event: Int, _ events: Events) -> Bool {
        guard condition.kind == events.kind(event) else { return false }
        switch condition.kind {
        case .custom: return condition.key == events.key(event)
        case .purchase: return condition.key == nil || condition.key == events.key(event)
        case .pushClick:
            return (condition.key == nil || condition.key == events.key(event))
                && (condition.action == nil || condition.action == events.action(event))
        default: return true
        }
    }

    /// A clause holds when any of its filters does (an empty clause never does).
    func clauseHolds(_ clause: Int, _ event: Int, _ events: Events) -> Bool {
        corpus.clause(clause).contains { filterHolds(corpus.filter($0), event, events) }
    }

    func filterHolds(_ filter: Filter, _ event: Int, _ events: Events) -> Bool {
        let op = filter.op
        guard let value = events.properties(event)[key: filter.key], fits(value, filter.type) else { return op.holdsOnMissing }
        if op == .exists { return true }
        if op == .notExists { return false }
        switch (value, filter.operand) {
        case (_, .number(let constant)):
            let order = value.number!.compare(constant)
            switch op {
            case .eq: return order == 0
            case .ne: return order != 0
            case .gt: return order > 0
            case .gte: return order >= 0
            case .lt: return order < 0
            case .lte: return order <= 0
            default: return false
            }
        case (_, .numbers(let list)):
            let found = list.contains { value.number!.compare(corpus.number($0)) == 0 }
            return op == .in ? found : !found
        case (.string(let id), .string(let constant)):
            return op == .eq ? id == constant : id != constant
        case (.string(let id), .strings(let list)):
            let found = list.contains { corpus.stringID($0) == id }
            return op == .in ? found : !found
        case (.string(let id), .regex(let regex)):
            let found = corpus.regex(regex, matches: events.string(id))
            return op == .regex ? found : !found
        case (.bool(let b), .bool(let constant)):
            return op == .eq ? b == constant : b != constant
        case (.date(let d), .seconds(let k)):
            let t = events.time(event)
            switch op {
            case .before: return d < k
            case .after: return d > k
            case .lessThanSecondsAgo: return d <= t && t - d < k
            case .moreThanSecondsAgo: return d <= t && t - d > k
            case .inLessThanSeconds: return d >= t && d - t < k
            case .inMoreThanSeconds: return d >= t && d - t > k
            default: return false
            }
        default:
            return false
        }
    }

    /// Whether a filter of `type` sees `value`; otherwise the property counts as missing.
    func fits(_ value: Value, _ type: PropertyType) -> Bool {
        switch value {
        case .int, .double: return type == .number
        case .string: return type == .string
        case .bool: return type == .boolean
        case .date: return type == .date
        case .null: return false
        }
    }
}
