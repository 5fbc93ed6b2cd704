import TriggerKit
import Workload
import XCTest

/// A small delta is published as a redirected base, which readers match exactly as a fresh build of
/// the delta's set; removing a base trigger publishes it inside a layer that renumbers the results.
final class RedirectedDeltaTests: XCTestCase {
    func testSmallDeltasArePublishedAsRedirectedBasesThatMatchLikeFreshBuilds() throws {
        try check(CompiledMatcher.self)
        try check(PredicateIndexMatcher.self)
    }

    func check<Base: LayerableMatcher>(_: Base.Type) throws {
        var spec = DifferentialTests.spec(seed: 11)
        spec.triggers = 80
        spec.events = 400
        var set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
        let writer = LayeredWriter<Base>(set, vocabulary: vocabulary, symbols: events.symbols)
        let first = writer.matcher
        var edited = set.triggers[3]
        edited.priority += 1
        var added = set.triggers[5]
        added.id = "added"
        added.conditions = [.customEvent(name: "a-name-no-corpus-had", filters: FilterCNF(clauses: []))] + added.conditions
        // A product no trigger named: under merged spans its new bucket carries a copy of any-purchase's.
        var product = set.triggers[7]
        product.id = "new-product"
        product.conditions = [.purchase(productID: "a-product-no-corpus-had", filters: FilterCNF(clauses: []))]

        let steps: [(TriggerSetDelta, plain: Bool)] = [
            (TriggerSetDelta(add: [added, product], replace: [edited]), true),
            (TriggerSetDelta(remove: [set.triggers[0].id]), false),  // base positions shift: results are renumbered
        ]
        for (k, (delta, plain)) in steps.enumerated() {
            set = try set.applying(delta)
            let matcher = try writer.apply(delta)
            XCTAssertEqual(writer.redirects, k + 1, "\(Base.strategyName) step \(k) was not redirected")
            XCTAssertEqual(writer.rebuilds, 0)
            XCTAssertEqual(matcher is Base, plain, "\(Base.strategyName) step \(k): published as \(type(of: matcher))")
            XCTAssertTrue(matcher.canReuseScratch(of: first), "a redirected snapshot shares its base's scratch family")
            XCTAssertEqual(matcher.triggerSet.triggers.map(\.id), set.triggers.map(\.id))
            let reference = ReferenceMatcher(set)
            let scratch = matcher.makeScratch(for: events)
            events.withView { view in
                for i in 0..<view.count {
                    matcher.match(i, in: view, scratch: scratch)
                    XCTAssertEqual(scratch.sortedResults, reference.match(view.event(at: i)), "\(Base.strategyName) step \(k), event \(i)")
                }
            }
        }
    }

    func testABucketTooBigToCopyIsLayeredInstead() throws {
        var spec = DifferentialTests.spec(seed: 12)
        spec.triggers = 60
        let set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let writer = LayeredWriter<CompiledMatcher>(set, vocabulary: vocabulary, redirectLimit: 0)
        var edited = set.triggers[0]
        edited.priority += 1
        let matcher = try writer.apply(TriggerSetDelta(replace: [edited]))
        XCTAssertEqual(writer.redirects, 0)
        XCTAssertFalse(matcher is CompiledMatcher, "over the limit, a delta is layered")
    }
}
