import TriggerKit
import XCTest

/// Range subscriptions cut into cells (`IntervalCells`) must answer as `reference` does: at every
/// interval end, strict and not, at -0, for empty intervals, absent and mistyped attributes, for
/// integers beyond 2^53 (which the cells cannot compare: their attribute is skipped and the conditions
/// left are checked against their filters),
/// for triggers with windows and for triggers with two conditions in the bucket.
final class IntervalCellsTests: XCTestCase {
    func subscriptions(_ n: Int, seed: UInt64) -> (TriggerSet, [Double]) {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var ends: [Double] = [0]
        var triggers: [String] = []
        for t in 0..<n {
            var clauses: [String] = []
            for a in 0..<4 where next(3) > 0 {
                let lo = Double(next(200) - 100) / 2, hi = lo + Double(next(40)) / 2 - (next(10) == 0 ? 30 : 0)
                ends += [lo, hi]
                // An equality now and then: a bucket stays cut while three quarters of it bound ranges only.
                let ops = next(30) == 0 ? ("eq", "") : [("gte", "lte"), ("gt", "lt"), ("gte", "lt"), ("gt", "lte")][next(4)]
                clauses.append(#"[{"property":"a\#(a)","type":"number","op":"\#(ops.0)","value":\#(lo)}]"#)
                if !ops.1.isEmpty { clauses.append(#"[{"property":"a\#(a)","type":"number","op":"\#(ops.1)","value":\#(hi)}]"#) }
            }
            if clauses.isEmpty { clauses.append(#"[{"property":"a0","type":"number","op":"gte","value":-0.0}]"#) }
            // Windows that shut out the events (at 1970) or hold them, and a second condition of the
            // same bucket: matches the cells decide are still screened and counted once.
            let window = t % 7 == 0 ? #""start_time":"2000-01-01T00:00:00Z","# : t % 11 == 0 ? #""end_time":"2000-01-01T00:00:00Z","# : ""
            let condition = #"{"type":"custom_event","event_name":"e","filters":[\#(clauses.joined(separator: ","))]}"#
            let second = t % 13 == 0 ? #",{"type":"custom_event","event_name":"e","filters":[[{"property":"a0","type":"number","op":"lte","value":0}]]}"# : ""
            triggers.append(#"{"id":"s\#(t)",\#(window)"conditions":[\#(condition)\#(second)]}"#)
        }
        // A few conditions of another form beside them: evaluated in full.
        for t in 0..<20 {
            triggers.append(#"{"id":"o\#(t)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"a1","type":"number","op":"ne","value":\#(t)}],[{"property":"s","type":"string","op":"exists"}]]}]}"#)
        }
        let set = try! CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        return (set, ends)
    }

    func testCellsAgreeWithReferenceAtEveryEnd() throws {
        let (set, ends) = subscriptions(400, seed: 7)
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        var values: [PropertyValue] = [.double(-0.0), .int(0), .int(9_007_199_254_740_993), .string("3"), .bool(true), .double(.nan)]
        for e in ends { values += [.double(e), .double(e.nextUp), .double(e.nextDown)] }
        for e in ends where e == e.rounded() { values.append(.int(Int64(e))) }
        var k = 0
        for v in values {
            // Each value on one attribute, the others drawn from the ends or left out.
            var properties: [String: PropertyValue] = ["a\(k % 4)": v]
            for a in 0..<4 where a != k % 4 && (k + a) % 3 != 0 { properties["a\(a)"] = .double(ends[(k * 7 + a) % ends.count]) }
            if k % 5 == 0 { properties["s"] = .string("x") }
            columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: properties))
            k += 1
        }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        let cells = try XCTUnwrap(index.cells, "the bucket is cut into cells")
        XCTAssertEqual(cells.count, 1)
        XCTAssertEqual(cells[0].residualCount, 20)
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 100)
    }

    /// Equality-only conditions stay with the crowd index's hash table, and a bucket whose ranges carry
    /// an equality on most conditions is not cut either (`IntervalCells.pays`).
    func testOnlyRangeBucketsAreCut() throws {
        let eq = (0..<300).map { #"{"id":"q\#($0)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"a","type":"number","op":"eq","value":\#($0)}]]}]}"# }
        let ranged = (0..<300).map { k in
            #"{"id":"r\#(k)","conditions":[{"type":"custom_event","event_name":"f","filters":[[{"property":"a","type":"number","op":"gte","value":\#(k)}],"#
                + #"[{"property":"b","type":"number","op":"eq","value":\#(k % 4)}]]}]}"#
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#((eq + ranged).joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertNil(index.cells)
        for name in ["e", "f"] {
            let plan = index.plan(of: index.buckets.customByName[Int(vocabulary.symbols.lookup(name)!)])
            XCTAssertNotEqual(plan, .cells, name)
            XCTAssertNotEqual(plan, .scan, name)
        }
    }

    /// Bounds and event integers around 2^53 and 2^63, where an integer lies between two doubles: a
    /// strict bound moved to the next double would decide it wrongly, so the answer must be the exact
    /// comparison's (it failed when such integers were compared through the doubles beside them).
    func testIntegersBeyondTwoToTheFiftyThree() throws {
        let bounds = ["9007199254740992", "9007199254740994.0", "-9007199254740994.0", "4611686018427387904.0",
                      "9.223372036854775808e18", "-9.223372036854775808e18", "1e19", "0"]
        var triggers: [String] = []
        for t in 0..<300 {
            let (lo, hi) = (bounds[t % bounds.count], bounds[(t / bounds.count + 1) % bounds.count])
            let ops = [("gte", "lte"), ("gt", "lt"), ("gte", "lt"), ("gt", "lte")][t % 4]
            triggers.append(#"{"id":"b\#(t)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"a","type":"number","op":"\#(ops.0)","value":\#(lo)}],[{"property":"a","type":"number","op":"\#(ops.1)","value":\#(hi)}]]}]}"#)
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let near: [Int64] = [1 << 53, 1 << 62, .max, .min, -(1 << 53)]
        for base in near {
            for delta: Int64 in [-3, -2, -1, 0, 1, 2, 3] {
                let (v, overflow) = base.addingReportingOverflow(delta)
                if !overflow { columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["a": .int(v)])) }
            }
        }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(try XCTUnwrap(index.cells, "the bucket is cut into cells").count, 1)
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 100)
    }

    /// One, three and five attributes (a short last group of bitsets ORed together), and one attribute
    /// under 20,000 conditions: a few dozen ends per cell, so the searches take several steps. Closed
    /// intervals on two: every end is a `Float`, so the end lists hold floats (`narrowEnds`).
    func testCellsAgreeOnOneToFiveAttributesAndLongEndLists() throws {
        for (d, n, closed) in [(1, 20_000, false), (3, 3_000, false), (5, 3_000, false), (2, 5_000, true)] {
            var state = UInt64(d)
            func next(_ bound: Int) -> Int {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Int((state >> 33) % UInt64(bound))
            }
            var ends: [Double] = []
            var triggers: [String] = []
            for t in 0..<n {
                var clauses: [String] = []
                for a in 0..<d where a == t % d || next(3) > 0 {
                    let lo = Double(next(4000) - 2000) / 2, hi = lo + Double(next(800)) / 2
                    ends += [lo, hi]
                    let ops = closed ? ("gte", "lte") : [("gte", "lte"), ("gt", "lt"), ("gte", "lt"), ("gt", "lte")][next(4)]
                    clauses.append(#"[{"property":"a\#(a)","type":"number","op":"\#(ops.0)","value":\#(lo)}]"#)
                    clauses.append(#"[{"property":"a\#(a)","type":"number","op":"\#(ops.1)","value":\#(hi)}]"#)
                }
                triggers.append(#"{"id":"s\#(t)","conditions":[{"type":"custom_event","event_name":"e","filters":[\#(clauses.joined(separator: ","))]}]}"#)
            }
            let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
            let vocabulary = Vocabulary(set)
            var columns = EventColumns(vocabulary: vocabulary)
            for k in 0..<300 {
                var properties: [String: PropertyValue] = [:]
                for a in 0..<d where d == 1 || (k + a) % 4 != 0 {
                    let e = ends[next(ends.count)]
                    properties["a\(a)"] = .double([e, e.nextUp, e.nextDown][next(3)])
                }
                columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: properties))
            }
            let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
            let cells = try XCTUnwrap(index.cells, "\(d) attributes: cut into cells")
            XCTAssertEqual(cells.count, 1)
            // A strict bound moved to the next double is no float.
            XCTAssertEqual(cells[0].narrowEnds, closed, "\(d) attributes")
            XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 300, "\(d) attributes")
        }
    }

    /// The program keeps no predicates for conditions the cells decide, except where another span
    /// evaluates them: here the any-purchase bucket is cut into cells and also copied behind one
    /// product's span, which is indexed otherwise, so its copies must still evaluate. And integers no
    /// double holds, on one attribute of several: that attribute is skipped and checked exactly.
    func testDecidedConditionsKeepPredicatesWhereAnotherSpanEvaluatesThem() throws {
        var triggers: [String] = []
        for t in 0..<300 {
            let lo = t % 40, big = ["9007199254740992.0", "9007199254740994.0", "9.007199254740996e15"][t % 3]
            let op = ["gt", "gte", "lt", "lte"][t % 4]
            triggers.append(#"{"id":"any\#(t)","conditions":[{"type":"purchase","product_id":null,"filters":[[{"property":"price","type":"number","op":"gte","value":\#(lo)}],[{"property":"n","type":"number","op":"\#(op)","value":\#(big)}]]}]}"#)
        }
        for t in 0..<150 {
            triggers.append(#"{"id":"p\#(t)","conditions":[{"type":"purchase","product_id":"p","filters":[[{"property":"tier","type":"string","op":"eq","value":"t\#(t % 9)"}]]}]}"#)
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for product in ["p", "q"] {
            for (k, n) in ([(1 << 53) - 1, 1 << 53, (1 << 53) + 1, (1 << 53) + 2, (1 << 53) + 3] as [Int64]).enumerated() {
                for price in [0.0, 19.0, 45.0] {
                    columns.append(Event(time: 1, kind: .purchase(productID: product), properties: ["price": .double(price), "n": .int(n), "tier": .string("t\(k)")]))
                }
            }
            columns.append(Event(time: 1, kind: .purchase(productID: product), properties: ["price": .int(30), "n": .double(9_007_199_254_740_994)]))
        }
        // Counting left for bigger buckets: the any-purchase bucket is small enough to be copied.
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(counted: 1_000))

        XCTAssertTrue(index.spans.merged, "the any-purchase conditions are copied behind the product's span")
        XCTAssertEqual(try XCTUnwrap(index.cells).count, 1)
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 1_000)
    }

    /// A value no double holds on the bucket's second condition of each trigger: the check against
    /// the trigger's filters must read that condition, not the first (which another attribute decides).
    func testAnIntegerNoDoubleHoldsIsCheckedAgainstItsOwnCondition() throws {
        let triggers = (0..<300).map { t in
            #"{"id":"t\#(t)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"a0","type":"number","op":"gte","value":\#(t)}]]},"#
                + #"{"type":"custom_event","event_name":"e","filters":[[{"property":"a1","type":"number","op":"\#(t % 2 == 0 ? "gt" : "lt")","value":9007199254740992.0}]]}]}"#
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for properties: [String: PropertyValue] in [["a1": .int(9_007_199_254_740_993)], ["a1": .int(-9_007_199_254_740_993)],
                                                    ["a0": .int(150), "a1": .int(9_007_199_254_740_995)]] {
            columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: properties))
        }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(try XCTUnwrap(index.cells).count, 1)
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 400)
    }

    /// One property written two ways that are canonically equivalent (U+2126 OHM SIGN and U+03A9):
    /// one attribute, and the exact check for an integer no double holds must find the filters in
    /// both spellings (it compares their bytes with each spelling the build saw).
    func testAnAttributeSpelledTwoWaysIsCheckedInBoth() throws {
        let triggers = (0..<300).map { t in
            #"{"id":"t\#(t)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"\#(t % 2 == 0 ? "\u{2126}" : "\u{03A9}")","type":"number","op":"\#(t % 3 == 0 ? "gt" : "lte")","value":\#(t)}],"#
                + #"[{"property":"b","type":"number","op":"gte","value":0}]]}]}"#
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for v: Int64 in [9_007_199_254_740_993, -9_007_199_254_740_993] {
            columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["\u{03A9}": .int(v), "b": .int(1)]))
            columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["\u{2126}": .int(v), "b": .int(1)]))
        }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(try XCTUnwrap(index.cells).count, 1)
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 300)
    }
}

