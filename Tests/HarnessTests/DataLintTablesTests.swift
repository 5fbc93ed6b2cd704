import Harness
import TriggerKit
import XCTest

/// The lint's corpus tables, built through vocabulary ids, against the plain way: a set of strings
/// per event and a dictionary of strings per property, filled filter by filter. Spellings are compared
/// by their bytes, so a canonically equivalent second spelling must not replace the first.
final class DataLintTablesTests: XCTestCase {
    static let events = ["open", "Open", "caf\u{E9}", "cafe\u{301}", "K", "\u{212A}"] + (0..<12).map { "ev\($0)" }
    static let properties = ["a", "\u{3A9}", "\u{2126}", "level", "Level", "caf\u{E9}", "cafe\u{301}"] + (0..<4).map { "p\($0)" }
    static let filters = [#""type":"number","op":"gte","value":1"#, #""type":"string","op":"eq","value":"x""#,
                          #""type":"boolean","op":"eq","value":true"#, #""type":"number","op":"exists""#,
                          #""type":"string","op":"not_exists""#]

    func testTablesEqualAFilterByFilterBuildOnRandomCorpora() throws {
        var random = SplitMix(seed: 7)
        for round in 0..<40 {
            let set = try CorpusDecoder.decode(bytes: Array(Self.corpus(&random, triggers: round < 20 ? 30 : 400).utf8))
            let lint = DataLint(set)
            let plain = PlainTables(set)
            XCTAssertEqual(Self.bytes(lint.numberProperties), Self.bytes(plain.numbers), "round \(round)")
            XCTAssertEqual(Self.bytes(lint.stringProperties), Self.bytes(plain.strings), "round \(round)")
            XCTAssertEqual(Self.bytes(lint.booleanProperties), Self.bytes(plain.booleans), "round \(round)")
            XCTAssertEqual(Self.bytes(lint.eventUses.mapValues(\.properties)), Self.bytes(plain.read), "round \(round)")
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: lint.filteredProperties.map { (Array($0.key.utf8), $0.value) }),
                           Dictionary(uniqueKeysWithValues: plain.filtered.map { (Array($0.key.utf8), $0.value) }), "round \(round)")
            XCTAssertEqual(Set(lint.usedSpellings.map { Array($0.utf8) }), Set(plain.spellings.map { Array($0.utf8) }), "round \(round)")
        }
    }

    static func corpus(_ random: inout SplitMix, triggers: Int) -> String {
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        var text = #"{"format":"trigger-corpus/1","triggers":["#
        for t in 0..<triggers {
            var conditions: [String] = []
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let clauses = (0..<Int(random.next() % 6)).map { _ in
                    #"[{"property":"\#(pick(properties))",\#(pick(filters))}]"#
                }.joined(separator: ",")
                let member = clauses.isEmpty ? "" : #","filters":[\#(clauses)]"#
                switch random.next() % 6 {
                case 0: conditions.append(#"{"type":"purchase","product_id":"\#(pick(events))"\#(member)}"#)
                case 1: conditions.append(#"{"type":"purchase","product_id":null\#(member)}"#)
                case 2: conditions.append(#"{"type":"session_start"}"#)
                case 3: conditions.append(#"{"type":"push_click","campaign_id":"\#(pick(events))","action_id":"\#(pick(events))"}"#)
                default: conditions.append(#"{"type":"custom_event","event_name":"\#(pick(events))"\#(member)}"#)
                }
            }
            text += (t == 0 ? "" : ",") + #"{"id":"t\#(t)","conditions":[\#(conditions.joined(separator: ","))]}"#
        }
        return text + "]}"
    }

    static func bytes(_ table: [DataLint.EventKey: Set<String>]) -> [String: Set<[UInt8]>] {
        var out: [String: Set<[UInt8]>] = [:]
        for (key, names) in table {
            // Keys as Swift compares them: which of two equivalent spellings names an event's entry
            // depends on the order the filters are met in, here and in the plain build alike.
            let k: String = switch key {
            case .custom(let name): "custom " + name
            case .purchase(let product): "purchase " + (product ?? "any")
            }
            XCTAssertNil(out[k], "two keys spelled alike")
            out[k] = Set(names.map { Array($0.utf8) })
        }
        return out
    }

    /// The tables as they were first built: a hashed insert per filter.
    struct PlainTables {
        var numbers: [DataLint.EventKey: Set<String>] = [:], strings: [DataLint.EventKey: Set<String>] = [:]
        var booleans: [DataLint.EventKey: Set<String>] = [:], read: [DataLint.EventKey: Set<String>] = [:]
        var filtered: [String: Int] = [:]
        var spellings = Set<String>()

        init(_ set: TriggerSet) {
            var compared: [String: Set<Pair>] = [:]
            for trigger in set.triggers {
                for condition in trigger.conditions {
                    let key: DataLint.EventKey?
                    switch condition {
                    case .customEvent(let name, _): spellings.insert(name); key = .custom(name)
                    case .purchase(let product, _): if let product { spellings.insert(product) }; key = .purchase(product)
                    case .pushClick(let campaign, let action):
                        if let campaign { spellings.insert(campaign) }
                        if let action { spellings.insert(action) }
                        key = nil
                    case .sessionStart: key = nil
                    }
                    for filter in condition.filters.filters {
                        if let key { read[key, default: []].insert(filter.property) }
                        filtered[filter.property, default: 0] += 1
                        compared[filter.property, default: []].formUnion([])
                        if let key, filter.op != .exists, filter.op != .notExists, filter.type != .date {
                            compared[filter.property, default: []].insert(Pair(key: key, type: filter.type))
                        }
                    }
                }
            }
            for (property, pairs) in compared {
                // The dictionary's key is the first spelling, as the filters' own tables keep it.
                for pair in pairs {
                    switch pair.type {
                    case .number: numbers[pair.key, default: []].insert(property)
                    case .string: strings[pair.key, default: []].insert(property)
                    default: booleans[pair.key, default: []].insert(property)
                    }
                }
            }
        }

        struct Pair: Hashable {
            let key: DataLint.EventKey
            let type: PropertyType
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
