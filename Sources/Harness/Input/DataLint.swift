import Foundation
import TriggerKit

/// What looks wrong in a user's corpus and event log together, though every line is valid: the
/// footguns that match nothing without a word (docs/harness.md, "Linting your data"). Filled while
/// the log is read (`observe`), so `bench run` and `bench fit` can say it once and `bench lint` list it.
package final class DataLint {
    /// One kind of trouble: how often, a few examples, and what to do.
    package struct Finding: Sendable {
        package let what: String
        /// What kind it is, for the one-line warning's rules (`summary`).
        package let kind: Kind
        package let count: Int
        package let examples: [String]
        package let fix: String
    }

    /// Per event (a custom event's name, a purchase's product or any purchase), the properties its
    /// filters compare as numbers, as strings and as booleans (`exists` compares nothing).
    let numberProperties: [EventKey: Set<String>]
    let stringProperties: [EventKey: Set<String>]
    let booleanProperties: [EventKey: Set<String>]
    /// Filtered properties, folded, to the spelling the filters use.
    let filteredFolded: [String: String]
    /// Trigger windows (`start_time`, `end_time`) that look like milliseconds.
    let windowMilliseconds: Tally
    /// Every property a filter reads, with how many filters read it.
    let filteredProperties: [String: Int]
    /// Trigger names and ids, folded (case and Unicode compatibility form), to the spelling used.
    let usedNames: [String: String]
    let usedSpellings: Set<String>

    var events = 0
    var milliseconds = Tally()
    var microseconds = Tally()
    var numbersAsStrings = Tally()
    var stringsAsNumbers = Tally()
    var booleansAsStrings = Tally()
    var dateMilliseconds = Tally()
    var seenProperties = Set<String>()
    /// Event property keys looked at once for a near-miss with a filtered property, and the near misses.
    var checkedKeys = Set<String>()
    var nearKeys: [String: String] = [:]
    /// Names and ids no trigger uses but one does under folding: the spelling seen, its count, the used one.
    var nearNames: [String: (count: Int, line: Int, used: String)] = [:]
    /// Events under near-miss spellings past the first `spellingLimit` distinct ones (counted, not kept).
    var nearNamesBeyondLimit = 0
    /// Distinct spellings kept per kind of near miss: enough for the examples, bounded for a hostile log.
    package static let spellingLimit = 10_000

    package enum Kind: Sendable { case time, valueType, nearName, unseenProperty }

    /// A value of the type its filters do not compare (a `Kind.valueType` finding), or a date far off.
    enum Mistyped { case numberAsString, stringAsNumber, booleanAsString, dateInMilliseconds }

    enum EventKey: Hashable {
        case custom(String)
        case purchase(String?)
    }

    struct Tally {
        var count = 0
        var examples: [String] = []
        mutating func add(_ example: @autoclosure () -> String) {
            count += 1
            if examples.count < 3 { examples.append(example()) }
        }
    }

    /// An epoch time in seconds past this is in the year 5138: a log in milliseconds (1.7e12 today) or
    /// microseconds (1.7e15) reads as tens of thousands of years from now.
    static let millisecondsFrom = 1e11
    static let microsecondsFrom = 1e14

    package init(_ set: TriggerSet) {
        var windows = Tally()
        var used: [String: String] = [:], foldOf: [String: String] = [:]
        // Each spelling folded once (folding was most of the cost of a large corpus's names); the
        // spelling used last stands for its fold.
        func use(_ name: String?) {
            guard let name else { return }
            if let folded = foldOf[name] {
                used[folded] = name
            } else {
                let folded = Self.fold(name)
                foldOf[name] = folded
                used[folded] = name
            }
        }
        func window(_ what: String, _ t: Double?, _ id: String) {
            if let t, abs(t) >= Self.millisecondsFrom { windows.add("trigger \(PrintableText.cut(id)): \(what) \(String(format: "%.0f", t))") }
        }
        // Per property, the (event, type) pairs its filters compare: one hash per filter, the pairs
        // found by a short scan (a property is compared under few event names, in most corpora).
        var uses: [String: PropertyUses] = [:]
        for trigger in set.triggers {
            window("start_time", trigger.startTime, trigger.id)
            window("end_time", trigger.endTime, trigger.id)
            for condition in trigger.conditions {
                let key: EventKey?
                switch condition {
                case .customEvent(let name, _): use(name); key = .custom(name)
                case .purchase(let product, _): use(product); key = .purchase(product)
                case .pushClick(let campaign, let action): use(campaign); use(action); key = nil
                case .sessionStart: key = nil
                }
                for filter in condition.filters.filters {
                    let compared = key != nil && filter.op != .exists && filter.op != .notExists
                        && (filter.type == .number || filter.type == .string || filter.type == .boolean)
                    uses[filter.property, default: PropertyUses()].add(compared ? key : nil, filter.type)
                }
            }
        }
        var numbers: [EventKey: Set<String>] = [:], strings: [EventKey: Set<String>] = [:], booleans: [EventKey: Set<String>] = [:]
        for (property, u) in uses {
            for pair in u.pairs.union(u.few.map { Pair(key: $0.key, type: $0.type) }) {
                switch pair.type {
                case .number: numbers[pair.key, default: []].insert(property)
                case .string: strings[pair.key, default: []].insert(property)
                default: booleans[pair.key, default: []].insert(property)
                }
            }
        }
        let filtered = uses.mapValues(\.filters)
        numberProperties = numbers
        stringProperties = strings
        booleanProperties = booleans
        windowMilliseconds = windows
        filteredFolded = Dictionary(filtered.keys.map { (Self.fold($0), $0) }, uniquingKeysWith: { a, b in min(a, b) })
        filteredProperties = filtered
        usedNames = used
        usedSpellings = Set(foldOf.keys)
    }

    /// How filters use one property: how many read it, and under which event as which type they compare it.
    struct PropertyUses {
        var filters = 0
        /// The first few pairs, scanned; any more in `pairs`.
        var few: [(key: EventKey, type: PropertyType)] = []
        var pairs = Set<Pair>()

        mutating func add(_ key: EventKey?, _ type: PropertyType) {
            filters += 1
            guard let key, !few.contains(where: { $0.key == key && $0.type == type }) else { return }
            if few.count < 8 { few.append((key, type)) } else { pairs.insert(Pair(key: key, type: type)) }
        }
    }

    struct Pair: Hashable {
        let key: EventKey
        let type: PropertyType
    }

    /// Case-folded NFKC: `Purchase`, `purchase` and `ｐｕｒｃｈａｓｅ` fold alike.
    static func fold(_ s: String) -> String { s.precomposedStringWithCompatibilityMapping.lowercased() }

    /// Notes one valid event of line `line`.
    package func observe(_ event: Event, line: Int) {
        events += 1
        if abs(event.time) >= Self.microsecondsFrom {
            microseconds.add("line \(line): time \(String(format: "%.0f", event.time))")
        } else if abs(event.time) >= Self.millisecondsFrom {
            milliseconds.add("line \(line): time \(String(format: "%.0f", event.time))")
        }
        switch event.kind {
        case .customEvent(let name): checkName(name, line: line)
        case .purchase(let product): checkName(product, line: line)
        case .pushClick(let campaign, let action):
            if let campaign { checkName(campaign, line: line) }
            if let action { checkName(action, line: line) }
        case .sessionStart: break
        }
        let keys: [EventKey]
        switch event.kind {
        case .customEvent(let name): keys = [.custom(name)]
        case .purchase(let product): keys = [.purchase(product), .purchase(nil)]
        default: keys = []
        }
        var flagged: [(key: String, kind: Mistyped, example: String)] = []
        for (key, value) in event.properties {
            guard filteredProperties[key] != nil else {
                // A key spelled unlike every filter's, looked at once: is it one of them in another case?
                if checkedKeys.count < Self.spellingLimit, checkedKeys.insert(key).inserted, let near = filteredFolded[Self.fold(key)] {
                    nearKeys[near] = nearKeys[near] ?? key
                }
                continue
            }
            seenProperties.insert(key)
            switch value {
            case .date(let d) where abs(d) >= Self.millisecondsFrom:
                flagged.append((key, .dateInMilliseconds, "line \(line): \"\(PrintableText.cut(key))\": a date \(String(format: "%.0f", d)) s from 1970"))
            case .string(let s) where (s == "true" || s == "false") && keys.contains(where: { booleanProperties[$0]?.contains(key) == true }):
                flagged.append((key, .booleanAsString, "line \(line): \"\(PrintableText.cut(key))\": \"\(s)\""))
            case .string(let s) where Self.sendableAsNumber(s) && keys.contains(where: { numberProperties[$0]?.contains(key) == true }):
                flagged.append((key, .numberAsString, "line \(line): \"\(PrintableText.cut(key))\": \"\(PrintableText.cut(s))\""))
            case .int, .double:
                if keys.contains(where: { stringProperties[$0]?.contains(key) == true }) {
                    flagged.append((key, .stringAsNumber, "line \(line): \"\(PrintableText.cut(key))\": \(value)"))
                }
            default: break
            }
        }
        // In key order: a dictionary's order changes between runs, and the examples must not.
        for f in flagged.sorted(by: { $0.key < $1.key }) {
            switch f.kind {
            case .numberAsString: numbersAsStrings.add(f.example)
            case .stringAsNumber: stringsAsNumbers.add(f.example)
            case .booleanAsString: booleansAsStrings.add(f.example)
            case .dateInMilliseconds: dateMilliseconds.add(f.example)
            }
        }
    }

    /// Whether `text` is a number JSON can send unquoted: "nan", "inf" and "1e999" read as Doubles but
    /// no JSON number is one of them, so "send the number unquoted" would be wrong advice.
    static func sendableAsNumber(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let d = Double(t), d.isFinite else { return false }
        return t.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) }
    }

    func checkName(_ name: String, line: Int) {
        guard !usedSpellings.contains(name) else { return }
        if var near = nearNames[name] {
            near.count += 1
            nearNames[name] = near
        } else if let used = usedNames[Self.fold(name)] {
            if nearNames.count < Self.spellingLimit { nearNames[name] = (1, line, used) } else { nearNamesBeyondLimit += 1 }
        }
    }

    /// What was found, worst first; empty when nothing looks wrong.
    package var findings: [Finding] {
        var out: [Finding] = []
        func add(_ tally: Tally, _ kind: Kind, _ what: String, fix: String) {
            if tally.count > 0 { out.append(Finding(what: what, kind: kind, count: tally.count, examples: tally.examples, fix: fix)) }
        }
        let late = "(past the year 5138 read as seconds)"
        add(microseconds, .time, "event times that look like microseconds \(late)", fix: "write times in seconds since 1970 (divide by 1,000,000)")
        add(milliseconds, .time, "event times that look like milliseconds \(late)", fix: "write times in seconds since 1970 (divide by 1,000)")
        add(dateMilliseconds, .time, "date properties that look like milliseconds \(late)", fix: "write dates in seconds since 1970, or as ISO-8601 text")
        add(windowMilliseconds, .time, "trigger windows that look like milliseconds \(late)", fix: "write start_time and end_time in seconds since 1970")
        let missing = "such a filter sees the property as missing"
        add(numbersAsStrings, .valueType, "numbers sent as strings to properties that number filters of the same event compare (a string is no number: \(missing))",
            fix: "send the number unquoted")
        add(stringsAsNumbers, .valueType, "numbers sent to properties that string filters of the same event compare (a number is no string: \(missing))",
            fix: "send the value as a string, or filter it as a number")
        add(booleansAsStrings, .valueType, "booleans sent as strings to properties that boolean filters of the same event compare (a string is no boolean: \(missing))",
            fix: "send true or false unquoted")
        let near = nearNames.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }
        if !near.isEmpty {
            out.append(Finding(what: "event names and ids no trigger uses that differ from one it does only by case or Unicode form", kind: .nearName,
                               count: near.reduce(nearNamesBeyondLimit) { $0 + $1.value.count },
                               examples: near.prefix(3).map { "\"\(PrintableText.cut($0.key))\" (\($0.value.count) event\($0.value.count == 1 ? "" : "s"), first line \($0.value.line)) vs the trigger's \"\(PrintableText.cut($0.value.used))\"" },
                               fix: "spell them as the triggers do (names match exactly, after canonical Unicode normalization)"))
        }
        let unseen = filteredProperties.filter { !seenProperties.contains($0.key) }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        if events > 0, !unseen.isEmpty {
            out.append(Finding(what: "properties filters read that no event of the log holds", kind: .unseenProperty, count: unseen.count,
                               examples: unseen.prefix(3).map { p in
                                   let near = nearKeys[p.key].map { "; events hold \"\(PrintableText.cut($0))\"" } ?? ""
                                   return "\"\(PrintableText.cut(p.key))\" (\(p.value) filter\(p.value == 1 ? "" : "s")\(near))"
                               },
                               fix: "check the names against your events' properties (nested objects read as dot paths: a.b)"))
        }
        return out
    }

    /// The findings in one line, for `bench run` and `bench fit` to say once; nil when there are none.
    /// Properties no event held are left out below 1,000 events (a short script holds few properties
    /// by design), and values of the other type below 1 % of the events.
    package func summary(corpusPath: String, eventLogPath: String) -> String? {
        // A value of the other type now and then (the generated workloads send some on purpose, to
        // exercise the rule) is left to `bench lint`; a habit (1 % of the events or more) is said.
        let found = findings.filter { f in
            switch f.kind {
            case .unseenProperty: events >= 1_000
            case .valueType: f.count * 100 >= events
            case .time, .nearName: true
            }
        }
        guard !found.isEmpty else { return nil }
        let list = found.map { "\($0.count) \($0.what.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces))" }.joined(separator: "; ")
        return "warning: your data may not mean what you think: \(list); see bench lint --corpus \(ShellWord.quoted(corpusPath)) --event-log \(ShellWord.quoted(eventLogPath))"
    }
}
