import TriggerKit
import Workload
import XCTest

/// What the counting index is for, held deterministically: on `huge-100k`'s shape (scaled to 20,000
/// triggers over 1,000 names, 20 per name as there), `predicate-index` evaluates little beyond the
/// conditions that match, where `compiled` evaluates a quarter more; and both agree with each other.
/// A change that stops counting big buckets (or makes the marks conservative) fails here, not only
/// in a timed run.
final class CountingPruningTests: XCTestCase {
    func testCountedBucketsEvaluateLittleBeyondTheirMatches() throws {
        var spec = try WorkloadSpec.load("huge-100k")
        spec.triggers = 20_000
        spec.eventNames = 1_000
        spec.events = 4_000
        let set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
        let compiled = CompiledMatcher(set, vocabulary: vocabulary), index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        let compiledScratch = compiled.makeScratch(for: events), indexScratch = index.makeScratch(for: events)
        var matches = 0
        events.withView { view in
            for i in 0..<view.count {
                compiled.match(i, in: view, scratch: compiledScratch)
                index.match(i, in: view, scratch: indexScratch)
                XCTAssertEqual(indexScratch.sortedResults, compiledScratch.sortedResults, "event \(i)")
                matches += compiledScratch.count
            }
        }
        let perEvent = { (n: Int) in Double(n) / Double(spec.events) }
        XCTAssertGreaterThan(perEvent(matches), 40, "the shape no longer matches dozens of triggers per event")
        XCTAssertGreaterThan(perEvent(compiledScratch.candidates), 1.2 * perEvent(matches), "compiled no longer evaluates failing conditions here")
        XCTAssertLessThan(perEvent(indexScratch.candidates), 1.05 * perEvent(matches),
                          "predicate-index evaluated \(perEvent(indexScratch.candidates)) conditions per event for \(perEvent(matches)) matches")
    }
}
