import TriggerKit
import XCTest

/// A crowd's condition filed under an equality that is not its only filter is listed with that clause
/// proven: the clause is laid out first and evaluation starts after it (`ProvenClause`).
extension PredicateIndexTests {
    func filter(_ key: String, _ op: String, _ value: String, _ type: String = "number") -> String {
        #"{"property":"\#(key)","type":"\#(type)","op":"\#(op)","value":\#(value)}"#
    }

    func provenCorpus(_ triggers: [String]) throws -> TriggerSet {
        try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
    }

    func testAProvenEqualityIsLaidOutFirstAndTheRestStillDecides() throws {
        func trigger(_ id: String, _ clauses: String) -> String {
            #"{"id":"\#(id)","conditions":[{"type":"custom_event","event_name":"e","filters":\#(clauses)}]}"#
        }
        var triggers = (0..<40).map { trigger("u\($0)", "[[\(filter("u", "eq", "\"u\($0)\"", "string"))]]") }
        // The equality is the last of three clauses, the first of two predicates (an OR).
        triggers.append(trigger("last", "[[\(filter("n", "gt", "5")),\(filter("m", "eq", "1"))],[\(filter("n", "lt", "100"))],[\(filter("u", "eq", "\"u7\"", "string"))]]"))
        // A number equality proven by 3.0 against the event's 3: `c == "x"` is common in the crowd, so
        // `k == 3.0` is the access (and proven) clause.
        triggers.append(trigger("num", "[[\(filter("c", "eq", "\"x\"", "string"))],[\(filter("k", "eq", "3.0"))]]"))
        triggers += (0..<3).map { trigger("x\($0)", "[[\(filter("c", "eq", "\"x\"", "string"))],[\(filter("x", "eq", "\($0)"))]]") }
        let set = try provenCorpus(triggers)
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let events: [[String: PropertyValue]] = [
            ["u": .string("u7"), "n": .int(6)], ["u": .string("u7"), "n": .int(200)], ["u": .string("u7"), "n": .int(1), "m": .int(1)],
            ["u": .string("u7"), "n": .int(1)], ["u": .string("u7")], ["u": .string("u8"), "n": .int(6)],
            ["k": .int(3), "c": .string("x")], ["k": .int(3), "c": .string("y")], ["k": .double(3), "c": .string("x")], ["k": .int(4), "c": .string("x")],
        ]
        for properties in events { columns.append(Event(time: 5, kind: .customEvent(name: "e"), properties: properties)) }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(index.crowds.count, 1)
        let proven = index.crowds[0].equalityEntries.elements.filter { $0 >= 0 && $0 & ProvenClause.flag != 0 }
        XCTAssertEqual(proven.count, 5, "every condition with a second clause filed as proven")
        // Were the flag set without the clause laid out first, `last` would skip its first clause and match event 3 (n = 1).
        XCTAssertEqual(matchesAgreeingWithReference(index, set, columns), 10)
    }

    /// A condition in two crowds (an any-purchase condition copied behind two products' spans) filed
    /// under a different equality in each: reordered once, for the first crowd; the second evaluates it in full.
    func testAConditionFiledUnderTwoEqualitiesIsReorderedOnce() throws {
        func purchase(_ id: String, _ product: String?, _ clauses: String) -> String {
            #"{"id":"\#(id)","conditions":[{"type":"purchase","product_id":\#(product.map { "\"\($0)\"" } ?? "null"),"filters":\#(clauses)}]}"#
        }
        // In p1's crowd `a == 1` is common, so `b == 2` files the shared condition; in p2's, the reverse.
        var triggers = (0..<40).map { purchase("p1-\($0)", "p1", "[[\(filter("a", "eq", "1"))],[\(filter("z", "eq", "\($0)"))]]") }
        triggers += (0..<40).map { purchase("p2-\($0)", "p2", "[[\(filter("b", "eq", "2"))],[\(filter("z", "eq", "\($0)"))]]") }
        triggers.append(purchase("shared", nil, "[[\(filter("a", "eq", "1"))],[\(filter("b", "eq", "2"))]]"))
        let set = try provenCorpus(triggers)
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for product in ["p1", "p2"] {
            for (a, b) in [(1, 2), (1, 3), (0, 2), (0, 3)] {
                columns.append(Event(time: 5, kind: .purchase(productID: product), properties: ["a": .int(Int64(a)), "b": .int(Int64(b)), "z": .int(3)]))
            }
        }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(index.crowds.count, 2, "each product's span is a crowd")
        let flagged = (0..<index.crowds.count).map { c in index.crowds[c].equalityEntries.elements.filter { $0 >= 0 && $0 & ProvenClause.flag != 0 }.count }
        XCTAssertEqual(flagged.reduce(0, +), 80 + 1, "the shared condition is proven in one crowd only")
        XCTAssertEqual(matchesAgreeingWithReference(index, set, columns), 6)
    }
}
