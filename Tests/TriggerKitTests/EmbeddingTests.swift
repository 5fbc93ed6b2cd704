import Foundation
import TriggerKit
import XCTest

/// What an embedder gets by default: the README's snippet, matching with a fast strategy that agrees
/// with the oracle.
final class EmbeddingTests: XCTestCase {
    static let corpus = Array(#"{"format":"trigger-corpus/1","triggers":[{"id":"big","conditions":[{"type":"purchase","product_id":"gold","filters":[[{"property":"price","type":"number","op":"gte","value":10}]]}],"message":{"id":"m"}}]}"#.utf8)

    func testTheReadmeSnippetDeliversAnEventWithTheDefaultEngine() throws {
        let set = try CorpusDecoder.decode(bytes: Self.corpus)
        let engine = DeliveryEngine(triggerSet: set)
        let outcome = engine.handle(try EventDecoder.decode(line: Array(#"{"type":"purchase","time":1,"product_id":"gold","properties":{"price":12}}"#.utf8)))
        XCTAssertEqual(outcome?.matched, [0], "\(String(describing: outcome))")
    }

    func testTheDefaultMatcherAgreesWithReference() throws {
        let set = try CorpusDecoder.decode(bytes: Self.corpus)
        let fast = StrategyRegistry.defaultEventMatcher(set), oracle = ReferenceMatcher(set)
        for price in [9, 10, 11] {
            let event = try EventDecoder.decode(line: Array(#"{"type":"purchase","time":1,"product_id":"gold","properties":{"price":\#(price)}}"#.utf8))
            XCTAssertEqual(fast(event), oracle.match(event), "price \(price)")
        }
    }
}
