import TriggerKit
import Workload
import XCTest

/// Every strategy must equal `reference`, match for match, on seeded random corpora and event streams
/// (all operators, mistyped and missing properties, ties, regexes, dates, windows, crowded buckets).
final class DifferentialTests: XCTestCase {
    /// Seeds when no environment variable says: a debug build matches 10–100× slower, so it runs a
    /// fifth of them; CI runs the release build with many more (`.ci/run`).
    static func defaultSeeds(release: Int) -> Int {
        #if DEBUG
        return release / 5
        #else
        return release
        #endif
    }

    /// A small random workload for `seed`: the knobs vary with the seed so corpora differ in shape.
    static func spec(seed: UInt64) -> WorkloadSpec {
        var rng = DeterministicRandom(seed: seed)
        var spec = WorkloadSpec()
        spec.name = "differential-\(seed)"
        spec.seed = seed
        spec.events = 150
        spec.triggers = rng.between(1, 120)
        spec.eventNames = rng.between(1, 25)
        spec.zipf = rng.unit() * 1.5
        spec.propertiesPerEvent = 0...rng.between(0, 20)
        spec.filtersPerTrigger = 0...rng.between(0, 8)
        spec.regexShare = rng.unit() * 0.3
        spec.kinds = ["custom_event": 0.6, "purchase": 0.2, "session_start": 0.1, "push_click": 0.1]
        spec.crowdedTriggers = rng.chance(0.3) ? rng.between(32, 300) : 0
        spec.freshStringShare = rng.chance(0.3) ? rng.unit() : 0
        return spec
    }

    /// Compares every strategy with reference on one workload; returns a reproducer on the first disagreement.
    static func disagreement(_ spec: WorkloadSpec) throws -> String? {
        let corpusJSON = WorkloadGenerator.corpusJSON(spec)
        let set = try CorpusDecoder.decode(corpusJSON)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
        let reference = ReferenceMatcher(set)
        let strategies = StrategyRegistry.all.filter { $0.name != "reference" && $0.name != "floor" }
        // Plus the predicate index built over every bucket of 4 or more conditions: with the default
        // threshold most of these small corpora would never reach the index.
        // And with every bucket counted (`CountingIndex`, by default only buckets of 256 or more).
        let names = strategies.map(\.name) + ["predicate-index (every bucket of 4 or more indexed)", "predicate-index (every bucket counted)"]
        let matchers = try strategies.map { try $0.make(set, vocabulary) } + [
            PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: 4, requirePruning: false)),
            PredicateIndexMatcher(set, vocabulary: vocabulary, thresholds: .init(crowd: .max, counted: 1)),
        ]
        let scratches = matchers.map { $0.makeScratch(for: events) }
        return events.withView { view -> String? in
            for i in 0..<view.count {
                let expected = reference.match(view.event(at: i))
                for (k, matcher) in matchers.enumerated() {
                    matcher.match(i, in: view, scratch: scratches[k])
                    let got = scratches[k].sortedResults
                    guard got != expected else { continue }
                    let differing = Set(got).symmetricDifference(expected).sorted()
                    guard case .array(let triggersJSON)? = corpusJSON["triggers"] else { return "no triggers" }
                    return """
                        strategy \(names[k]) disagrees with reference on seed \(spec.seed), event \(i)
                          expected \(expected.map { set.triggers[$0].id }), got \(got.map { set.triggers[$0].id })
                          event:   \(WorkloadGenerator.jsonLine(events, i, view: view))
                          minimal corpus (the first differing trigger alone):
                          {"format":"trigger-corpus/1","triggers":[\(triggersJSON[differing[0]].serialized)]}
                        """
                }
            }
            return nil
        }
    }

    func testEveryStrategyEqualsReferenceOnThousandsOfSeededCorpora() throws {
        let seeds = UInt64(ProcessInfo.processInfo.environment["DIFFERENTIAL_SEEDS"].flatMap(Int.init) ?? DifferentialTests.defaultSeeds(release: 1000))
        for seed in 1...seeds {
            if let failure = try Self.disagreement(Self.spec(seed: seed)) {
                XCTFail(failure)
                return
            }
        }
    }

    func testGeneratedFilesRoundTripToTheSameMatches() throws {
        var spec = Self.spec(seed: 7)
        spec.crowdedTriggers = 50
        let set = try WorkloadGenerator.corpus(spec)
        let reloaded = try CorpusDecoder.decode(bytes: Array(WorkloadGenerator.corpusJSON(spec).serialized.utf8))
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
        let compiled = CompiledMatcher(set, vocabulary: vocabulary)
        let scratch = compiled.makeScratch(for: events)
        let reference = ReferenceMatcher(reloaded)
        events.withView { view in
            for i in 0..<view.count {
                let line = WorkloadGenerator.jsonLine(events, i, view: view)
                let decoded = try! EventDecoder.decode(line: Array(line.utf8))
                compiled.match(i, in: view, scratch: scratch)
                XCTAssertEqual(reference.match(decoded), scratch.sortedResults, line)
            }
        }
    }

    func testSameSpecAndSeedGiveTheSameBytes() throws {
        let spec = Self.spec(seed: 99)
        XCTAssertEqual(WorkloadGenerator.corpusJSON(spec).serialized, WorkloadGenerator.corpusJSON(spec).serialized)
        let set = try WorkloadGenerator.corpus(spec)
        let a = WorkloadGenerator.events(spec, vocabulary: Vocabulary(set))
        let b = WorkloadGenerator.events(spec, vocabulary: Vocabulary(set))
        let lines = { (c: EventColumns) in c.withView { v in (0..<v.count).map { WorkloadGenerator.jsonLine(c, $0, view: v) } } }
        XCTAssertEqual(lines(a), lines(b))
    }
}

import Foundation
