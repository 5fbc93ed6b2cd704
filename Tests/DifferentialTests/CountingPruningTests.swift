import TriggerKit
import Workload
import XCTest

/// What the counting index is for, held deterministically: on `huge-100k`'s shape (scaled to 20,000
/// triggers over 1,000 names, 20 per name as there), `predicate-index` evaluates little beyond the
/// conditions that match, where `compiled` evaluates a quarter more; and both agree with each other.
/// A change that stops counting big buckets (or makes the marks conservative) fails here, not only
/// in a timed run.
final class CountingPruningTests: XCTestCase {
    /// `huge-100k`'s spec at 20,000 triggers over 1,000 names, its corpus and `events` events.
    static func hugeShape(events count: Int) throws -> (WorkloadSpec, TriggerSet, Vocabulary, EventColumns) {
        var spec = try WorkloadSpec.load("huge-100k")
        spec.triggers = 20_000
        spec.eventNames = 1_000
        spec.events = count
        let set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        return (spec, set, vocabulary, WorkloadGenerator.events(spec, vocabulary: vocabulary))
    }

    func testCountedBucketsEvaluateLittleBeyondTheirMatches() throws {
        let (spec, set, vocabulary, events) = try Self.hugeShape(events: 4_000)
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

    /// Snapshots a delta writer publishes over a counted base (its scratch needs room for the marks)
    /// agree with `compiled` built from scratch on the same set, delta after delta.
    func testDeltaSnapshotsOverCountedBucketsAgree() throws {
        let (spec, first, vocabulary, events) = try Self.hugeShape(events: 2_000)
        var set = first
        var rng = DeterministicRandom(seed: 99)
        let donors = try DeltaDifferentialTests.donors(spec, &rng)
        let writer = try StrategyRegistry.named(PredicateIndexMatcher.strategyName)!.makeWriter(set, vocabulary, events.symbols)
        var gone: [String] = []
        for step in 0..<4 {
            let before = gone
            let (delta, valid) = DeltaDifferentialTests.delta(set, donors, step: step, gone: &gone, &rng)
            guard valid else {
                gone = before
                continue
            }
            set = try set.applying(delta)
            try writer.apply(delta)
            let snapshot = writer.matcher, expected = CompiledMatcher(set, vocabulary: Vocabulary(set))
            // The expected matcher interns its own vocabulary: compare by trigger id.
            var expectedColumns = EventColumns(vocabulary: Vocabulary(set))
            events.withView { view in for i in 0..<view.count { expectedColumns.append(view.event(at: i)) } }
            let scratch = snapshot.makeScratch(for: events), expectedScratch = expected.makeScratch(for: expectedColumns)
            expectedColumns.withView { expectedView in
                events.withView { view in
                    for i in 0..<view.count {
                        snapshot.match(i, in: view, scratch: scratch)
                        expected.match(i, in: expectedView, scratch: expectedScratch)
                        XCTAssertEqual(scratch.sortedResults.map { set.triggers[$0].id }, expectedScratch.sortedResults.map { set.triggers[$0].id },
                                       "step \(step), event \(i)")
                    }
                }
            }
        }
    }
}
