import TriggerKit
import XCTest

/// The compiled matchers screen each bucket entry by window, push action and required property keys
/// (64 presence bits) before evaluating clauses, in spans of 64 entries. These cases sit on that screen's
/// edges: more than 64 filter keys (bits shared), keys a clause does not require (`ne`, `not_exists`),
/// clauses over two or three keys (one of which must be present), buckets longer than one run, windows
/// and push actions.
final class EntryScreenTests: XCTestCase {
    func testScreenedBucketsAgreeWithReference() throws {
        var triggers: [String] = []
        func trigger(_ id: String, _ condition: String, window: String = "") {
            triggers.append(#"{"id":"\#(id)"\#(window),"conditions":[\#(condition)]}"#)
        }
        func event(_ filters: String) -> String { #"{"type":"custom_event","event_name":"e","filters":\#(filters)}"# }
        // 150 entries on one event name: longer than two spans of 64; 70 keys share the 64 bits.
        for k in 0..<70 {
            trigger("eq\(k)", event(#"[[{"property":"p\#(k)","type":"number","op":"eq","value":\#(k)}]]"#))
            trigger("ne\(k)", event(#"[[{"property":"p\#(k)","type":"number","op":"ne","value":\#(k)}]]"#))
        }
        for k in 0..<5 {
            trigger("either\(k)", event(#"[[{"property":"p\#(k)","type":"number","op":"eq","value":\#(k)},{"property":"p\#(k + 64)","type":"number","op":"eq","value":\#(k + 64)}]]"#))
            trigger("absent\(k)", event(#"[[{"property":"p\#(k)","type":"number","op":"not_exists"}]]"#))
        }
        // One of two keys needed (screened by `anyOfKeys`), next to clauses that must not be screened that way:
        // a two-key clause with an `ne` (holds when its key is missing) and a single-key clause beside it.
        trigger("oneOf", event(#"[[{"property":"p2","type":"number","op":"exists"},{"property":"p66","type":"number","op":"gt","value":0}]]"#))
        trigger("oneOfNe", event(#"[[{"property":"p3","type":"number","op":"eq","value":3},{"property":"p67","type":"number","op":"ne","value":1}]]"#))
        trigger("oneOfAnd", event(#"[[{"property":"p1","type":"number","op":"exists"}],[{"property":"p4","type":"number","op":"lt","value":9},{"property":"p68","type":"number","op":"exists"}],[{"property":"p5","type":"number","op":"exists"},{"property":"p6","type":"number","op":"exists"},{"property":"p7","type":"number","op":"exists"}]]"#))
        trigger("both", event(#"[[{"property":"p1","type":"number","op":"exists"}],[{"property":"p65","type":"number","op":"exists"}]]"#))
        trigger("early", event("[]"), window: #","end_time":"2020-01-01T00:00:00Z""#)
        trigger("late", event("[]"), window: #","start_time":"2030-01-01T00:00:00Z""#)
        trigger("open", event("[]"))
        // Windows are screened as one unsigned range test on order-preserving integer keys of the times:
        // bounds included, -0 equal to +0, negative times, a window of one instant. (The decoder refuses an
        // empty window; a `TriggerSet` built in code may hold one, and its entries are left out of the spans.)
        trigger("zero", event("[]"), window: #","start_time":0,"end_time":0"#)
        trigger("negative", event("[]"), window: #","start_time":-100,"end_time":-1"#)
        trigger("instant", event("[]"), window: #","start_time":1800000000,"end_time":1800000000"#)
        trigger("from-zero", event("[]"), window: #","start_time":0"#)
        trigger("push-a", #"{"type":"push_click","campaign_id":"c","action_id":"a"}"#)
        trigger("push-any", #"{"type":"push_click","campaign_id":"c"}"#)
        // Push actions share the presence bits with property keys (70 actions, 64 bits): a survivor's
        // action is still compared exactly.
        for k in 0..<70 { trigger("push-a\(k)", #"{"type":"push_click","campaign_id":"c","action_id":"a\#(k)"}"#) }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let time = 1_800_000_000.0  // 2027
        var events: [Event] = [Event(time: time, kind: .customEvent(name: "e"), properties: [:])]
        for k in 0..<70 {
            events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p\(k)": .int(Int64(k))]))
            events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p\(k)": .int(-1), "p\((k + 64) % 70)": .int(Int64((k + 64) % 70))]))
            events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p\(k)": .string("x")]))
        }
        events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p1": .int(0), "p65": .int(0)]))
        events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p1": .int(0), "p68": .int(0), "p7": .int(0)]))
        events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p1": .int(0), "p4": .int(0), "p6": .int(0)]))
        events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p1": .int(0), "p4": .int(10), "p5": .int(0)]))
        events.append(Event(time: time, kind: .customEvent(name: "e"), properties: ["p66": .int(1), "p2": .string("x")]))
        events.append(Event(time: 1_500_000_000, kind: .customEvent(name: "e"), properties: [:]))
        events.append(Event(time: 1_950_000_000, kind: .customEvent(name: "e"), properties: [:]))
        for action in ["a", "b", nil] + (0..<70).filter({ $0 % 3 == 0 }).map({ "a\($0)" }) {
            events.append(Event(time: time, kind: .pushClick(campaignID: "c", actionID: action), properties: [:]))
        }
        for t in [-0.0, 0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, -100, -50, -1, -0.5, 5, 7, 10, 1_799_999_999.5,
                  1_800_000_000.5, -1e300, 1e300] {
            events.append(Event(time: t, kind: .customEvent(name: "e"), properties: [:]))
        }
        for e in events { columns.append(e) }
        let reference = ReferenceMatcher(set)
        // predicate-index scans this bucket as compiled does (its index would not prune enough), unless told to index it.
        let matchers: [(String, any Matcher)] = [
            ("compiled", CompiledMatcher(set, vocabulary: vocabulary)),
            ("predicate-index", PredicateIndexMatcher(set, vocabulary: vocabulary)),
            ("predicate-index (indexed)", PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 32, requirePruning: false))),
            ("predicate-index (counted)", PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: .max, counted: 1))),
        ]
        let scratches = matchers.map { $0.1.makeScratch(for: columns) }
        var matched = 0
        columns.withView { view in
            for i in 0..<view.count {
                let expected = reference.match(view.event(at: i))
                matched += expected.count
                for (k, (name, matcher)) in matchers.enumerated() {
                    matcher.match(i, in: view, scratch: scratches[k])
                    XCTAssertEqual(scratches[k].sortedResults, expected, "\(name), event \(i): \(events[i])")
                }
            }
        }
        XCTAssertGreaterThan(matched, events.count * 60, "the cases should match (ne triggers hold on most events)")
        // The window cases are not vacuous: each non-empty window holds for some event and not for another.
        for id in ["zero", "negative", "instant", "from-zero"] {
            let t = set.triggers.firstIndex { $0.id == id }!
            let hits = events.filter { reference.match($0).contains(t) }.count
            XCTAssert(hits > 0 && hits < events.count, "\(id) matched \(hits) of \(events.count) events")
        }
    }
}

extension EntryScreenTests {
    /// The decoder refuses a window that ends before it starts; a set built in code can hold one. Its
    /// entries are left out of the spans (the unsigned range test would wrap on it), so nothing matches.
    func testAnEmptyWindowBuiltInCodeNeverMatches() {
        let condition = Condition.customEvent(name: "e", filters: FilterCNF(clauses: []))
        let set = TriggerSet(triggers: [Trigger(id: "empty", startTime: 10, endTime: 5, conditions: [condition]),
                                        Trigger(id: "open", conditions: [condition])])
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for t in [0.0, 5, 7, 10, 1e9] { columns.append(Event(time: t, kind: .customEvent(name: "e"), properties: [:])) }
        let reference = ReferenceMatcher(set)
        for matcher in [CompiledMatcher(set, vocabulary: vocabulary) as any Matcher, PredicateIndexMatcher(set, vocabulary: vocabulary)] {
            let scratch = matcher.makeScratch(for: columns)
            columns.withView { view in
                for i in 0..<view.count {
                    matcher.match(i, in: view, scratch: scratch)
                    XCTAssertEqual(scratch.sortedResults, reference.match(view.event(at: i)))
                    XCTAssertEqual(scratch.sortedResults, [1])
                }
            }
        }
    }
}
