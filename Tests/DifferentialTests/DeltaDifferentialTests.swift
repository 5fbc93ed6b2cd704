import TriggerKit
import Workload
import XCTest

/// Random sequences of deltas through every strategy's writer: after each one, the snapshot must match
/// every event exactly as `reference` over a from-scratch copy of the same set does (same triggers,
/// same order), and a refused delta must change nothing.
final class DeltaDifferentialTests: XCTestCase {
    /// Triggers to draw additions and replacements from: another seed's corpus over the same event
    /// names (names the events carry but the corpus may not), some moved to names no event carries.
    static func donors(_ spec: WorkloadSpec, _ rng: inout DeterministicRandom) throws -> [Trigger] {
        var other = spec
        other.seed = spec.seed &+ 7_777
        other.triggers = 60
        return try WorkloadGenerator.corpus(other).triggers.map { t in
            var t = t
            if rng.chance(0.2) {
                t.conditions = t.conditions.map { c in
                    if case .customEvent(_, let filters) = c { return .customEvent(name: "fresh-\(rng.below(5))", filters: filters) }
                    return c
                }
            }
            return t
        }
    }

    /// A random delta against `set`: removals, replacements and additions in random numbers, sometimes
    /// many (so writers merge), sometimes naming an absent id (so it must be refused).
    /// `gone`: ids removed earlier, which an addition may bring back (a masked base trigger added anew).
    static func delta(_ set: TriggerSet, _ donors: [Trigger], step: Int, gone: inout [String],
                      _ rng: inout DeterministicRandom) -> (TriggerSetDelta, valid: Bool) {
        var ids = set.triggers.map(\.id)
        var delta = TriggerSetDelta()
        let size = rng.chance(0.15) ? rng.between(20, 300) : rng.between(1, 12)
        for k in 0..<size {
            switch rng.below(4) {
            case 3 where !gone.isEmpty:
                var t = donors[rng.below(donors.count)]
                t.id = gone.remove(at: rng.below(gone.count))
                delta.add.append(t)
            case 0 where !ids.isEmpty:
                delta.remove.append(ids.remove(at: rng.below(ids.count)))
            case 1 where !ids.isEmpty:
                var t = donors[rng.below(donors.count)]
                t.id = ids.remove(at: rng.below(ids.count))
                delta.replace.append(t)
            default:
                var t = donors[rng.below(donors.count)]
                t.id = "added-\(step)-\(k)"
                delta.add.append(t)
            }
        }
        if rng.chance(0.1) {
            delta.remove.append("absent-\(step)")
            return (delta, false)
        }
        gone += delta.remove
        return (delta, true)
    }

    func testDeltaBuiltSnapshotsEqualFromScratchBuilds() throws {
        let seeds = UInt64(ProcessInfo.processInfo.environment["DELTA_SEEDS"].flatMap(Int.init) ?? DifferentialTests.defaultSeeds(release: 100))
        for seed in 1...seeds {
            if let failure = try Self.disagreement(seed: seed) {
                XCTFail(failure)
                return
            }
        }
    }

    static func disagreement(seed: UInt64) throws -> String? {
        let spec = DifferentialTests.spec(seed: seed)
        var rng = DeterministicRandom(seed: seed &* 31 &+ 5)
        var set = try WorkloadGenerator.corpus(spec)
        let vocabulary = Vocabulary(set)
        let events = WorkloadGenerator.events(spec, vocabulary: vocabulary)
        let donors = try Self.donors(spec, &rng)
        // `reference` is the oracle here (a from-scratch build per delta), not a subject: its writer
        // rebuilds like `indexed`'s, which is tested.
        var strategies = StrategyRegistry.all.filter { $0.name != FloorMatcher.strategyName && $0.name != ReferenceMatcher.strategyName }
            .map { (name: $0.name, makeWriter: $0.makeWriter) }
        // The delta writers once more each way: every delta redirected where it can be, and every one layered.
        for (way, limit) in [("redirected", Int.max), ("layered", -1)] {
            strategies.append(("compiled, \(way)", { LayeredWriter<CompiledMatcher>($0, vocabulary: $1, symbols: $2, redirectLimit: limit) }))
            strategies.append(("predicate-index, \(way)", { LayeredWriter<PredicateIndexMatcher>($0, vocabulary: $1, symbols: $2, redirectLimit: limit) }))
        }
        let writers = try strategies.map { try $0.makeWriter(set, vocabulary, events.symbols) }
        var readers = writers.map { (matcher: $0.matcher, scratch: $0.matcher.makeScratch(for: events)) }
        var gone: [String] = []
        for step in 0..<10 {
            let before = gone
            let (delta, valid) = Self.delta(set, donors, step: step, gone: &gone, &rng)
            if !valid { gone = before }
            if valid { set = try set.applying(delta) }
            for (k, writer) in writers.enumerated() {
                do {
                    try writer.apply(delta)
                    if !valid { return "\(strategies[k].name): seed \(seed) step \(step): a delta naming an absent id was applied" }
                } catch is InputError {
                    if valid { return "\(strategies[k].name): seed \(seed) step \(step): a valid delta was refused" }
                }
                let matcher = writer.matcher
                if !matcher.canReuseScratch(of: readers[k].matcher) { readers[k].scratch = matcher.makeScratch(for: events) }
                readers[k].matcher = matcher
                guard writer.triggerCount == set.triggers.count, matcher.triggerSet.triggers.map(\.id) == set.triggers.map(\.id) else {
                    return "\(strategies[k].name): seed \(seed) step \(step): the snapshot's set is not the delta's result: \(writer.triggerCount) triggers, expected \(set.triggers.count); ids \(matcher.triggerSet.triggers.map(\.id)), expected \(set.triggers.map(\.id))"
                }
            }
            let reference = ReferenceMatcher(set)
            let failure = events.withView { view -> String? in
                for i in 0..<view.count {
                    let expected = reference.match(view.event(at: i))
                    for k in writers.indices {
                        readers[k].matcher.match(i, in: view, scratch: readers[k].scratch)
                        let got = readers[k].scratch.sortedResults
                        guard got != expected else { continue }
                        return """
                            \(strategies[k].name) after delta \(step) disagrees with reference on seed \(seed), event \(i) \
                            (\(writers[k].rebuilds) rebuilds): expected \(expected.map { set.triggers[$0].id }), \
                            got \(got.map { $0 >= 0 && $0 < set.triggers.count ? set.triggers[$0].id : "#\($0)" })
                              event: \(WorkloadGenerator.jsonLine(events, i, view: view))
                            """
                    }
                }
                return nil
            }
            if let failure { return failure }
        }
        return nil
    }
}
