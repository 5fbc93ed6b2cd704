import TriggerKit
import XCTest

final class PredicateIndexTests: XCTestCase {
    /// Bands, one-sided ranges and equalities probed at their exact boundaries must agree with reference.
    func testIndexedRangesAndBandsAgreeWithReferenceAtTheirBoundaries() throws {
        var triggers: [String] = []
        let ops = [("gt", "lt"), ("gte", "lte"), ("gt", "lte"), ("gte", "lt")]
        for k in 0..<48 {
            let (lo, hi) = ops[k % 4]
            let a = Double(k * 10), b = Double(k * 10 + (k % 3 == 0 ? 0 : 5 + k % 7))
            triggers.append(#"{"id":"band\#(k)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"v","type":"number","op":"\#(lo)","value":\#(a)}],[{"property":"v","type":"number","op":"\#(hi)","value":\#(b)}]]}]}"#)
        }
        for (k, op) in ["gt", "gte", "lt", "lte"].enumerated() {
            for c in [100, 9_007_199_254_740_993] {
                triggers.append(#"{"id":"one\#(op)\#(c)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"v","type":"number","op":"\#(op)","value":\#(c + k)}]]}]}"#)
            }
        }
        triggers.append(#"{"id":"eq3","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"v","type":"number","op":"eq","value":3.0}]]}]}"#)
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        var values: [PropertyValue] = [.int(3), .double(3), .int(9_007_199_254_740_993), .int(9_007_199_254_740_996), .int(.max), .int(.min)]
        for k in 0..<48 {
            for d in [-0.5, 0, 0.5, 5, 5.5, 6, 11, 12] { values.append(.double(Double(k * 10) + d)) }
            values.append(.int(Int64(k * 10)))
        }
        for v in values { columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["v": v])) }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 32, requirePruning: false))
        XCTAssertGreaterThan(matchesAgreeingWithReference(index, set, columns), 0)
    }

    /// A band whose width rounds below `upper - lower` (1e9 - -1e-9 is 1e9 as a double) must still be
    /// found at its upper bound: the probe window rounds outward. Found by an outside reading of the docs.
    func testBandsWhoseWidthRoundsAreFoundAtTheirBounds() throws {
        let bands: [(String, String, String, String)] = [("gte", "-1e-9", "lte", "1e9"), ("gte", "-0.01", "lte", "1e15"),
                                                         ("gte", "-2.5", "lte", "1e308"), ("gte", "-1.5e-5", "lte", "18446744073709551616.0"),
                                                         ("gt", "-1e19", "lte", "1.7976931348623157e308"), ("gte", "-1.5e-5", "lte", "8")]
        // Each band alone beside the crowd: a wider band would widen the window for all.
        for (lo, a, hi, b) in bands {
            var triggers = (0..<31).map { #"{"id":"eq\#($0)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"n","type":"number","op":"eq","value":\#($0)}]]}]}"# }
            triggers.append(#"{"id":"band","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"n","type":"number","op":"\#(lo)","value":\#(a)}],[{"property":"n","type":"number","op":"\#(hi)","value":\#(b)}]]}]}"#)
            let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
            let vocabulary = Vocabulary(set)
            var columns = EventColumns(vocabulary: vocabulary)
            let values = [Double(a)!, Double(b)!, Double(b)!.nextDown]
            for v in values { columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["n": .double(v)])) }
            let reference = ReferenceMatcher(set)
            let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
            let scratch = index.makeScratch(for: columns)
            columns.withView { view in
                for i in 0..<view.count {
                    index.match(i, in: view, scratch: scratch)
                    let expected = reference.match(view.event(at: i))
                    if lo == "gte" { XCTAssertTrue(expected.contains(31), "\(values[i]) is in [\(a), \(b)]") }
                    XCTAssertEqual(scratch.sortedResults, expected, "value \(values[i]) against \(lo) \(a), \(hi) \(b)")
                }
            }
        }
    }

    /// Each condition of a crowd is filed under its access predicate (a rare equality before a band before
    /// a one-sided range, among filters alone in their clause; thresholds beyond 2^53 do not count), and a
    /// crowd is indexed only when that classification says probing prunes at least half of it.
    func testAccessPredicatesAndWhichCrowdsAreIndexed() throws {
        func condition(_ clauses: String) -> String { #"{"type":"custom_event","event_name":"e","filters":\#(clauses)}"# }
        func f(_ key: String, _ op: String, _ value: String) -> String { #"{"property":"\#(key)","type":"number","op":"\#(op)","value":\#(value)}"# }
        let cases: [(String, String)] = [
            ("band", "[[\(f("v", "gt", "1"))],[\(f("w", "lt", "9"))],[\(f("v", "lte", "5"))]]"),
            ("range", "[[\(f("v", "gt", "1"))],[\(f("w", "lt", "5"))]]"),
            ("equality", "[[\(f("v", "gt", "1"))],[\(f("w", "eq", "2"))]]"),
            ("residual", "[[\(f("v", "gt", "1")),\(f("w", "eq", "2"))]]"),
            ("residual", "[[\(f("v", "gt", "9007199254740993"))]]"),
            ("residual", "[]"),
        ]
        // Crowd "e": the six cases; crowd "eq": 40 equalities (prunes); crowd "res": 40 residuals (does not).
        var triggers = cases.enumerated().map { k, c in #"{"id":"c\#(k)","conditions":[\#(condition(c.1))]}"# }
        for k in 0..<40 {
            triggers.append(#"{"id":"q\#(k)","conditions":[{"type":"custom_event","event_name":"eq","filters":[[\#(f("v", "eq", "\(k)"))]]}]}"#)
            triggers.append(#"{"id":"r\#(k)","conditions":[{"type":"custom_event","event_name":"res","filters":[[\#(f("v", "ne", "\(k)"))]]}]}"#)
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        let program = PredicateProgram(set, vocabulary: vocabulary)
        let buckets = TriggerBuckets(set, vocabulary: vocabulary)
        let spans = program.spans(for: buckets)
        func run(_ name: String) -> Range<Int> { spans.range(of: buckets.customByName[Int(vocabulary.symbols.lookup(name)!)]) }
        var statistics = AccessStatistics(entries: run("e"), of: spans.entries, program: program)
        for (offset, e) in run("e").enumerated() {
            let kind: String
            switch CrowdIndex.access(of: spans.entries[e], in: program, statistics: &statistics) {
            case .keyed(let k, let literal, _): kind = literal ? "literal" : "equality"; XCTAssertEqual(k.kind, 0)
            case .band(let lo, let hi): kind = "band"; XCTAssertEqual([lo.code, hi.code], [.numGt, .numLte])
            case .range(let p): kind = "range"; XCTAssertEqual(p.code, .numGt)
            case .residual: kind = "residual"
            }
            XCTAssertEqual(kind, cases[offset].0, "condition \(offset)")
        }
        func prunes(_ name: String) -> Bool {
            var statistics = AccessStatistics(entries: run(name), of: spans.entries, program: program)
            return CrowdIndex.pays(entries: run(name), of: spans.entries, program: program, statistics: &statistics)
        }
        XCTAssertTrue(prunes("eq"))
        XCTAssertFalse(prunes("res"))
        let matcher = PredicateIndexMatcher(set, vocabulary: vocabulary)
        let indexed = (0..<buckets.bucketCount).filter { matcher.plan(of: Int32($0)) == .crowd }
        XCTAssertEqual(indexed, [Int(buckets.customByName[Int(vocabulary.symbols.lookup("eq")!)])])
    }

    /// A condition whose only filter is the equality it is filed under is accepted when the probe finds
    /// it, without evaluation, but still only inside its trigger's window, once per trigger, and for
    /// numbers that compare equal (3, 3.0; 0, -0.0); one with a second clause is still evaluated.
    func testConditionsThatAreTheirEqualityAloneAreAcceptedWithinTheirWindows() throws {
        func trigger(_ id: String, _ filters: String, window: String = "", conditions: Int = 1) -> String {
            let condition = #"{"type":"custom_event","event_name":"e","filters":\#(filters)}"#
            return #"{"id":"\#(id)"\#(window),"conditions":[\#(Array(repeating: condition, count: conditions).joined(separator: ","))]}"#
        }
        func eq(_ key: String, _ type: String, _ value: String) -> String { #"{"property":"\#(key)","type":"\#(type)","op":"eq","value":\#(value)}"# }
        var triggers = (0..<40).map { trigger("u\($0)", "[[\(eq("u", "string", "\"u\($0)\""))]]") }
        triggers += [
            trigger("windowed", "[[\(eq("u", "string", "\"u1\""))]]", window: #","start_time":10,"end_time":20"#),
            trigger("twice", "[[\(eq("u", "string", "\"u2\""))]]", conditions: 2),
            trigger("second-clause", "[[\(eq("u", "string", "\"u3\""))],[\(eq("n", "number", "1"))]]"),
            trigger("three", "[[\(eq("n", "number", "3.0"))]]"),
            trigger("zero", "[[\(eq("n", "number", "-0.0"))]]"),
            trigger("flag", "[[\(eq("b", "boolean", "true"))]]"),
        ]
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let events: [(Double, [String: PropertyValue])] = [
            (15, ["u": .string("u1")]), (25, ["u": .string("u1")]), (5, ["u": .string("u2")]),
            (5, ["u": .string("u3")]), (5, ["u": .string("u3"), "n": .int(1)]), (5, ["n": .int(3)]), (5, ["n": .double(3)]),
            (5, ["n": .int(0)]), (5, ["n": .double(-0.0)]), (5, ["b": .bool(true)]), (5, ["b": .bool(false)]), (5, ["u": .int(1)]),
        ]
        for (time, properties) in events { columns.append(Event(time: time, kind: .customEvent(name: "e"), properties: properties)) }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(index.crowds.count, 1)
        XCTAssertTrue(index.crowds[0].equalityEntries.elements.contains { $0 < 0 }, "no condition was filed to be accepted")
        XCTAssertEqual(matchesAgreeingWithReference(index, set, columns), 13)
    }

    /// A condition that is one literal-only regex alone is checked against the text where the probe
    /// finds it and accepted without evaluation: case-insensitively, inside its window, and listed for
    /// RE2 when the text folds outside ASCII; one with a second clause is still evaluated.
    func testConditionsThatAreOneLiteralRegexAreCheckedAndAccepted() throws {
        func trigger(_ id: String, _ filters: String, window: String = "") -> String {
            #"{"id":"\#(id)"\#(window),"conditions":[{"type":"custom_event","event_name":"e","filters":\#(filters)}]}"#
        }
        func regex(_ pattern: String) -> String { #"{"property":"path","type":"string","op":"regex","value":"\#(pattern)"}"# }
        // 300: regexes are filed by their literals only in crowds of `AccessStatistics.literalThreshold`.
        var triggers = (0..<300).map { trigger("r\($0)", "[[\(regex("^/api/r\($0)/"))]]") }
        triggers += [
            trigger("windowed", "[[\(regex("^/api/r1/"))]]", window: #","start_time":10,"end_time":20"#),
            trigger("second-clause", "[[\(regex("^/api/r2/"))],[" + #"{"property":"n","type":"number","op":"eq","value":1}"# + "]]"),
            trigger("suffix", "[[\(regex("items$"))]]"),
        ]
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let events: [(Double, [String: PropertyValue])] = [
            (15, ["path": .string("/api/r1/x")]), (25, ["path": .string("/api/r1/x")]), (5, ["path": .string("/API/R3/items")]),
            (5, ["path": .string("/api/r2/x")]), (5, ["path": .string("/api/r2/x"), "n": .int(1)]), (5, ["path": .string("/api/r33")]),
            (5, ["path": .string("/api/r4/\u{212A}items")]), (5, ["path": .string("/api/r5/ſ")]), (5, ["path": .string("x/api/r6/")]),
            (5, ["path": .string("/items/more")]),
        ]
        for (time, properties) in events { columns.append(Event(time: time, kind: .customEvent(name: "e"), properties: properties)) }
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 32, requirePruning: false))
        XCTAssertEqual(index.crowds.count, 1)
        guard index.crowds.count == 1 else { return }
        let exact = index.crowds[0].literalExact
        XCTAssertTrue((0..<exact.count).contains { exact[$0] >= 0 }, "no condition was filed to be checked and accepted")
        XCTAssertEqual(matchesAgreeingWithReference(index, set, columns), 11)
    }
}

/// Shared by every test that checks a `predicate-index` build against the oracle event by event.
extension XCTestCase {
    /// Matches every event of `columns` through `index` and through `reference`, asserting that they
    /// agree on each; returns how many matches `reference` found (a check that something matched).
    func matchesAgreeingWithReference(_ index: PredicateIndexMatcher, _ set: TriggerSet, _ columns: EventColumns,
                                      file: StaticString = #filePath, line: UInt = #line) -> Int {
        let reference = ReferenceMatcher(set)
        let scratch = index.makeScratch(for: columns)
        var matched = 0
        columns.withView { view in
            for i in 0..<view.count {
                index.match(i, in: view, scratch: scratch)
                let expected = reference.match(view.event(at: i))
                matched += expected.count
                XCTAssertEqual(scratch.sortedResults, expected, "event \(i): \(view.event(at: i))", file: file, line: line)
            }
        }
        return matched
    }

}
