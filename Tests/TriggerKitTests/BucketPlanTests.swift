import TriggerKit
import XCTest

/// Which index a bucket gets is decided in one place (`BucketPlan.choose`), in a fixed order:
/// cells for range subscriptions, a crowd index where probes prune, counting where clauses can be
/// marked, else a scan. Each shape below is one bucket (one event name); the plans are asserted
/// directly, and every plan's matcher still answers as `reference` does.
final class BucketPlanTests: XCTestCase {
    func corpus(_ triggers: [String]) throws -> TriggerSet {
        try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
    }

    func trigger(_ id: String, _ event: String, _ clauses: [String]) -> String {
        #"{"id":"\#(id)","conditions":[{"type":"custom_event","event_name":"\#(event)","filters":[\#(clauses.map { "[\($0)]" }.joined(separator: ","))]}]}"#
    }

    func filter(_ property: String, _ type: String, _ op: String, _ value: String) -> String {
        #"{"property":"\#(property)","type":"\#(type)","op":"\#(op)","value":\#(value)}"#
    }

    /// Four buckets, one per plan: equalities (a crowd), two-sided ranges on two attributes (cells),
    /// `!=` on one key and a string on another (nothing to access by, countable: counted), and a small
    /// bucket (scanned).
    func shapes() throws -> TriggerSet {
        var triggers: [String] = []
        for k in 0..<300 { triggers.append(trigger("eq\(k)", "equal", [filter("a", "number", "eq", "\(k)")])) }
        for k in 0..<300 {
            triggers.append(trigger("range\(k)", "range", [filter("x", "number", "gte", "\(k)"), filter("x", "number", "lt", "\(k + 50)"),
                                                           filter("y", "number", "gt", "\(k % 7)")]))
        }
        for k in 0..<300 {
            triggers.append(trigger("ne\(k)", "mixed", [filter("n", "number", "ne", "\(k)"), filter("s", "string", "ne", "\"v\(k % 9)\"")]))
        }
        for k in 0..<10 { triggers.append(trigger("small\(k)", "small", [filter("a", "number", "eq", "\(k)")])) }
        // Range subscriptions too few to cut: a band on `x` prunes, so a crowd.
        for k in 0..<100 {
            triggers.append(trigger("few\(k)", "fewranges", [filter("x", "number", "gte", "\(k)"), filter("x", "number", "lt", "\(k + 50)")]))
        }
        return try corpus(triggers)
    }

    func plans(_ matcher: PredicateIndexMatcher, _ vocabulary: Vocabulary) -> [String: BucketPlan] {
        var plans: [String: BucketPlan] = [:]
        for name in ["equal", "range", "mixed", "small", "fewranges"] {
            let b = matcher.buckets.customByName[Int(vocabulary.symbols.lookup(name)!)]
            plans[name] = matcher.plan(of: b)
        }
        return plans
    }

    func testEachShapeGetsItsPlan() throws {
        let set = try shapes()
        let vocabulary = Vocabulary(set)
        let matcher = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual(plans(matcher, vocabulary), ["equal": .crowd, "range": .cells, "mixed": .counted, "small": .scan, "fewranges": .crowd])
        XCTAssertEqual(matcher.crowds.count, 2, "equal and fewranges")
        XCTAssertEqual(matcher.cells?.count, 1)
    }

    /// Lowered thresholds reach each index on small buckets; cells keep their own size (a range
    /// bucket below it is not cut even where counting is forced), and a crowd that does not prune is
    /// indexed only without `requirePruning`.
    func testThresholdsMoveOnlyTheirOwnPlan() throws {
        let set = try shapes()
        let vocabulary = Vocabulary(set)
        let counted = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: .max, counted: 1))
        XCTAssertEqual(plans(counted, vocabulary),
                       ["equal": .counted, "range": .cells, "mixed": .counted, "small": .counted, "fewranges": .counted])
        let crowds = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 4, requirePruning: false))
        XCTAssertEqual(plans(crowds, vocabulary), ["equal": .crowd, "range": .cells, "mixed": .crowd, "small": .crowd, "fewranges": .crowd])
        let pruning = PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 4))
        XCTAssertEqual(plans(pruning, vocabulary)["mixed"], .counted, "a crowd of residual conditions does not prune")
    }

    func testEveryPlanAnswersAsReference() throws {
        let set = try shapes()
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        for k in 0..<500 {
            let name = ["equal", "range", "mixed", "small", "fewranges"][k % 5]
            columns.append(Event(time: 1, kind: .customEvent(name: name),
                                 properties: ["a": .int(Int64(k % 12)), "x": .double(Double(k % 330) + 0.5), "y": .int(Int64(k % 9)),
                                              "n": .int(Int64(k % 310)), "s": .string("v\(k % 11)")]))
        }
        let reference = ReferenceMatcher(set)
        for matcher in [PredicateIndexMatcher(set, vocabulary: vocabulary),
                        PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: .max, counted: 1)),
                        PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 4, requirePruning: false))] {
            let scratch = matcher.makeScratch(for: columns)
            var matched = 0
            columns.withView { view in
                for i in 0..<view.count {
                    matcher.match(i, in: view, scratch: scratch)
                    let expected = reference.match(view.event(at: i))
                    XCTAssertEqual(scratch.sortedResults, expected, "event \(i)")
                    matched += expected.count
                }
            }
            XCTAssertGreaterThan(matched, 400)
        }
    }
}
