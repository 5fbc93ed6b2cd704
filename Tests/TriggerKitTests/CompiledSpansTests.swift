import TriggerKit
import XCTest

/// `compiled` (and `predicate-index`) lay each product's (campaign's) bucket out followed by a copy of the any-purchase
/// (any-push) bucket, so an event scans one span; when the copies would more than double the entries it
/// keeps the buckets apart and scans two. Both layouts must match exactly what `reference` matches,
/// including triggers with a product condition and an any-product condition (matched once).
final class CompiledSpansTests: XCTestCase {
    func testMergedAndSeparateRunsAgreeWithReference() throws {
        func purchase(_ product: String?, _ filters: String = "[]") -> String {
            #"{"type":"purchase","product_id":\#(product.map { "\"\($0)\"" } ?? "null"),"filters":\#(filters)}"#
        }
        func push(_ campaign: String?) -> String { #"{"type":"push_click","campaign_id":\#(campaign.map { "\"\($0)\"" } ?? "null")}"# }
        let cheap = #"[[{"property":"price","type":"number","op":"gt","value":10}]]"#
        let products = ["p0", "p1", "p2", "p3", "p4"]
        // Few "any" conditions behind few product buckets: copied. Many behind many: kept apart.
        for (productCount, anyCount, expectMerged) in [(2, 1, true), (5, 4, false)] {
            var triggers: [String] = []
            func trigger(_ id: String, _ conditions: [String]) {
                triggers.append(#"{"id":"\#(id)","conditions":[\#(conditions.joined(separator: ","))]}"#)
            }
            for (k, p) in products.prefix(productCount).enumerated() { trigger("only-\(p)", [purchase(p, k % 2 == 0 ? cheap : "[]")]) }
            for k in 0..<anyCount { trigger("any\(k)", [purchase(nil, k % 2 == 0 ? "[]" : cheap)]) }
            trigger("both", [purchase("p1"), purchase(nil, cheap)])
            trigger("push-c", [push("c")])
            trigger("push-any", [push(nil)])
            let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
            let vocabulary = Vocabulary(set)
            var columns = EventColumns(vocabulary: vocabulary)
            var events: [Event] = []
            for p in products + ["unknown"] {
                for price in [5.0, 50.0] { events.append(Event(time: 1, kind: .purchase(productID: p), properties: ["price": .double(price)])) }
            }
            for c in ["c", "d", nil] { events.append(Event(time: 1, kind: .pushClick(campaignID: c, actionID: nil), properties: [:])) }
            for e in events { columns.append(e) }
            let compiled = CompiledMatcher(set, vocabulary: vocabulary)
            XCTAssertEqual(compiled.merged, expectMerged, "\(anyCount) any-purchase conditions")
            // predicate-index uses the same spans; with every span of 4 or more indexed, the copies are indexed too.
            let matchers: [(String, any Matcher)] = [
                ("compiled", compiled), ("predicate-index", PredicateIndexMatcher(set, vocabulary: vocabulary)),
                ("predicate-index (indexed)", PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 4, requirePruning: false))),
                ("predicate-index (counted)", PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: .max, counted: 1))),
            ]
            let reference = ReferenceMatcher(set)
            for (name, matcher) in matchers {
                let scratch = matcher.makeScratch(for: columns)
                columns.withView { view in
                    for i in 0..<view.count {
                        matcher.match(i, in: view, scratch: scratch)
                        XCTAssertEqual(scratch.sortedResults, reference.match(view.event(at: i)), "\(name), merged \(expectMerged), event \(events[i])")
                    }
                }
            }
        }
    }
}
