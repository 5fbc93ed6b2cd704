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
        let reference = ReferenceMatcher(set)
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary, crowdThreshold: 32, requirePruning: false)
        let scratch = index.makeScratch(for: columns)
        columns.withView { view in
            for i in 0..<view.count {
                index.match(i, in: view, scratch: scratch)
                XCTAssertEqual(scratch.sortedResults, reference.match(view.event(at: i)), "value \(values[i])")
            }
        }
    }
}
