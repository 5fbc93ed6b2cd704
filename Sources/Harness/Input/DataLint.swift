import Foundation
import TriggerKit

/// What looks wrong in a user's corpus and event log together, though every line is valid: the
/// footguns that match nothing without a word (docs/harness.md, "Linting your data"). Filled while
/// the log is read (`observe`), so `bench run` and `bench fit` can say it once and `bench lint` list it.
package final class DataLint {
    /// Per event (a custom event's name, a purchase's product or any purchase), the properties its
    /// filters compare as numbers, as strings and as booleans (`exists` compares nothing).
    package let numberProperties: [EventKey: Set<String>]
    package let stringProperties: [EventKey: Set<String>]
    package let booleanProperties: [EventKey: Set<String>]
    /// Filtered properties, folded, to the spelling the filters use.
    let filteredFolded: [String: String]
    /// Trigger windows (`start_time`, `end_time`) that look like milliseconds.
    let windowMilliseconds: Tally
    /// Every property a filter reads, with how many filters read it.
    package let filteredProperties: [String: Int]
    /// Trigger names and ids, as spelled, and what an unknown spelling was likely meant to be.
    let usedNames: NearSpellings
    package let usedSpellings: Set<String>
    /// Per event that filters read properties of: the properties they read (any operator).
    package let eventUses: [EventKey: EventUse]

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
    /// Names no trigger uses and none is near, looked up once.
    var farNames = Set<String>()
    /// Events under near-miss spellings past the first `spellingLimit` distinct ones (counted, not kept).
    var nearNamesBeyondLimit = 0
    /// Distinct spellings kept per kind of near miss: enough for the examples, bounded for a hostile log.
    package static let spellingLimit = 10_000
    /// Per (event, property, mistake): how many events of that name sent a value of the other type.
    var typeMisses: [Miss: Int] = [:]
    /// Per such pair, the values of the filters' own type seen after its first miss: misses that are
    /// fewer are slips of the events; more, and it is the filter's type that looks wrong.
    var typeHits: [Miss: Int] = [:]
    /// Per (event, property): keys no filter of the event reads, spelled near one that does.
    var nearProperties: [NearProperty: (count: Int, line: Int, meant: String)] = [:]
    /// (event, property) pairs looked up for a near property, all events together.
    var checkedPairs = 0

    package enum Kind: Sendable { case time, valueType, nearName, nearProperty, unseenProperty }

    /// A value of the type its filters do not compare (a `Kind.valueType` finding), or a date far off.
    enum Mistyped: Hashable { case numberAsString, stringAsNumber, booleanAsString, dateInMilliseconds }

    struct Miss: Hashable {
        let kind: Mistyped
        let key: EventKey
        let property: String
    }

    struct NearProperty: Hashable {
        let key: EventKey
        let property: String
    }

    /// One event's filtered properties, how many events of it the log held, and the keys it sent
    /// that no filter of it reads, each looked up once (nil: near none).
    package final class EventUse {
        package let properties: Set<String>
        lazy var near = NearSpellings(properties)
        var events = 0
        var checked: [String: String?] = [:]
        init(_ properties: Set<String>) { self.properties = properties }
    }

    package enum EventKey: Hashable {
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

    /// The lint of `set`, its tables read through `vocabulary` (the set's own).
    package init(_ set: TriggerSet, vocabulary: Vocabulary) {
        let t = CorpusTables(set, vocabulary: vocabulary)
        numberProperties = t.numbers
        stringProperties = t.strings
        booleanProperties = t.booleans
        windowMilliseconds = t.windows
        // Each spelling kept once and folded once (folding was most of the cost of a large corpus's names).
        filteredFolded = Dictionary(t.filtered.keys.map { (Self.fold($0), $0) }, uniquingKeysWith: { a, b in min(a, b) })
        filteredProperties = t.filtered
        usedNames = NearSpellings(t.spellings)
        usedSpellings = t.spellings
        eventUses = t.read.mapValues(EventUse.init)
    }

    package convenience init(_ set: TriggerSet) { self.init(set, vocabulary: Vocabulary(set)) }

    static func fold(_ s: String) -> String { NearSpellings.fold(s) }

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
        let uses = keys.map { eventUses[$0] }
        for use in uses { use?.events += 1 }
        var flagged: [(key: String, kind: Mistyped, event: EventKey?, example: String)] = []
        for (key, value) in event.properties {
            checkNearProperty(key, keys: keys, uses: uses, line: line)
            guard filteredProperties[key] != nil else {
                // A key spelled unlike every filter's, looked at once: is it one of them in another case?
                if checkedKeys.count < Self.spellingLimit, checkedKeys.insert(key).inserted, let near = filteredFolded[Self.fold(key)] {
                    nearKeys[near] = nearKeys[near] ?? key
                }
                continue
            }
            seenProperties.insert(key)
            func compared(_ table: [EventKey: Set<String>]) -> EventKey? { keys.first { table[$0]?.contains(key) == true } }
            // Values of the filters' type, counted only for pairs that have missed once (most logs have none).
            if !typeMisses.isEmpty {
                let hit: (Mistyped, [EventKey: Set<String>])? = switch value {
                case .bool: (.booleanAsString, booleanProperties)
                case .string: (.stringAsNumber, stringProperties)
                case .int, .double: (.numberAsString, numberProperties)
                default: nil
                }
                if let (kind, table) = hit, let event = compared(table) {
                    let miss = Miss(kind: kind, key: event, property: key)
                    if typeMisses[miss] != nil { typeHits[miss, default: 0] += 1 }
                }
            }
            switch value {
            case .date(let d) where abs(d) >= Self.millisecondsFrom:
                flagged.append((key, .dateInMilliseconds, nil, "line \(line): \"\(PrintableText.cut(key))\": a date \(String(format: "%.0f", d)) s from 1970"))
            case .string(let s) where s == "true" || s == "false":
                if let event = compared(booleanProperties) {
                    flagged.append((key, .booleanAsString, event, "line \(line): \"\(PrintableText.cut(key))\": \"\(s)\""))
                }
            case .string(let s):
                // The table first: most strings go to properties no number filter reads.
                if let event = compared(numberProperties), Self.sendableAsNumber(s) {
                    flagged.append((key, .numberAsString, event, "line \(line): \"\(PrintableText.cut(key))\": \"\(PrintableText.cut(s))\""))
                }
            case .int, .double:
                if let event = compared(stringProperties) {
                    flagged.append((key, .stringAsNumber, event, "line \(line): \"\(PrintableText.cut(key))\": \(value)"))
                }
            default: break
            }
        }
        // In key order: a dictionary's order changes between runs, and the examples must not.
        for f in flagged.sorted(by: { $0.key < $1.key }) {
            if let event = f.event { typeMisses[Miss(kind: f.kind, key: event, property: f.key), default: 0] += 1 }
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
        var utf8 = Substring(text).utf8
        // Spaces and tabs around it, as a person pastes a number; nothing but number characters inside.
        while let c = utf8.first, c == 0x20 || c == 0x09 { utf8.removeFirst() }
        while let c = utf8.last, c == 0x20 || c == 0x09 { utf8.removeLast() }
        guard !utf8.isEmpty, utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }),
              let d = Double(Substring(utf8)), d.isFinite else { return false }
        return true
    }

    func checkName(_ name: String, line: Int) {
        guard !usedSpellings.contains(name), !farNames.contains(name) else { return }
        if var near = nearNames[name] {
            near.count += 1
            nearNames[name] = near
        } else if let used = usedNames.suggestion(for: name) {
            if nearNames.count < Self.spellingLimit { nearNames[name] = (1, line, used) } else { nearNamesBeyondLimit += 1 }
        } else if farNames.count < Self.spellingLimit * 10 {
            farNames.insert(name)
        }
    }

    /// Counts `key` when no filter of this event reads it but one reads a property spelled near it
    /// (`Level` beside `level`, `sesions_count` beside `sessions_count`).
    func checkNearProperty(_ key: String, keys: [EventKey], uses: [EventUse?], line: Int) {
        for (event, use) in zip(keys, uses) {
            guard let use, !use.properties.contains(key) else { continue }
            let meant: String?
            if let known = use.checked[key] {
                meant = known
            } else {
                guard checkedPairs < Self.spellingLimit * 10 else { continue }
                checkedPairs += 1
                meant = use.near.suggestion(for: key)
                use.checked[key] = meant
            }
            guard let meant else { continue }
            let pair = NearProperty(key: event, property: key)
            if var seen = nearProperties[pair] {
                seen.count += 1
                nearProperties[pair] = seen
            } else if nearProperties.count < Self.spellingLimit {
                nearProperties[pair] = (1, line, meant)
            }
            return
        }
    }
}
