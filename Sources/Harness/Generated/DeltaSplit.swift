import Foundation
import TriggerKit
import Workload

/// A generated corpus reached by a delta instead of built whole: a base set and the `trigger-delta/1`
/// that turns it into the corpus, trigger for trigger and in corpus order. The base lacks a tail of
/// the corpus (the delta adds it), holds other triggers' conditions under some ids (the delta
/// replaces them back) and holds extra triggers (the delta removes them). The split depends only on
/// the trigger count, so a shrunk case is split again the same way.
struct DeltaSplit {
    /// Corpus triggers from here on are added by the delta.
    let addedFrom: Int
    /// (corpus index, donor corpus index): the base holds the donor's conditions under the index's id.
    let replaced: [(index: Int, donor: Int)]
    /// (base position among the kept corpus triggers, donor corpus index): extra triggers the delta removes.
    let extras: [(position: Int, donor: Int)]

    init(count n: Int) {
        var rng = DeterministicRandom(seed: UInt64(n) &* 0x2545_F491_4F6C_DD1D &+ 17)
        let added = n == 0 ? 0 : (rng.chance(0.2) ? rng.between(0, n / 2) : rng.between(0, min(n, 8)))
        let kept = n - added
        var replaced: [(index: Int, donor: Int)] = []
        for _ in 0..<(kept == 0 ? 0 : rng.between(0, min(kept, 4))) {
            let index = rng.below(kept), donor = rng.below(n)
            if !replaced.contains(where: { $0.index == index }) { replaced.append((index, donor)) }
        }
        var extras: [(position: Int, donor: Int)] = []
        for _ in 0..<(n == 0 ? 0 : rng.between(0, 3)) { extras.append((rng.between(0, kept), rng.below(n))) }
        (addedFrom, self.replaced, self.extras) = (kept, replaced, extras)
    }

    static func extraID(_ k: Int) -> String { "delta-extra-\(k)" }

    /// The base set's triggers, given the corpus's and a way to give a trigger another's id.
    func base<T>(_ corpus: [T], renamed: (T, String) -> T, id: (T) -> String) -> [T] {
        var kept = Array(corpus[..<addedFrom])
        for r in replaced { kept[r.index] = renamed(corpus[r.donor], id(corpus[r.index])) }
        var out: [T] = []
        for position in 0...kept.count {
            for (k, e) in extras.enumerated() where e.position == position { out.append(renamed(corpus[e.donor], Self.extraID(k))) }
            if position < kept.count { out.append(kept[position]) }
        }
        return out
    }

    func delta(_ corpus: [Trigger]) -> TriggerSetDelta {
        TriggerSetDelta(add: Array(corpus[addedFrom...]), remove: extras.indices.map(Self.extraID),
                        replace: replaced.map { corpus[$0.index] })
    }

    /// The delta as a `trigger-delta/1` document.
    func deltaJSON(_ corpus: [JSONValue]) -> JSONValue {
        .object([("format", .string("trigger-delta/1")), ("add", .array(Array(corpus[addedFrom...]))),
                 ("remove", .array(extras.indices.map { .string(Self.extraID($0)) })), ("replace", .array(replaced.map { corpus[$0.index] }))])
    }

    /// Matchers built on the base and handed the delta, by a strategy's own writer or a layered one.
    static func contenders() -> [GeneratedCheck.Contender] {
        var writers: [(String, @Sendable (TriggerSet, Vocabulary, SymbolTable?) throws -> any TriggerSetWriter)] =
            StrategyRegistry.all.filter { $0.name == CompiledMatcher.strategyName || $0.name == PredicateIndexMatcher.strategyName }
                .map { ($0.name + " after a delta", $0.makeWriter) }
        writers.append(("compiled after a layered delta", { LayeredWriter<CompiledMatcher>($0, vocabulary: $1, symbols: $2, redirectLimit: -1) }))
        writers.append(("predicate-index after a layered delta", { LayeredWriter<PredicateIndexMatcher>($0, vocabulary: $1, symbols: $2, redirectLimit: -1) }))
        return writers.map { name, makeWriter in
            GeneratedCheck.Contender(name: name, throughDelta: true) { _, set, vocabulary, symbols in
                let split = DeltaSplit(count: set.triggers.count)
                let base = TriggerSet(triggers: split.base(set.triggers, renamed: { t, id in var t = t; t.id = id; return t }, id: \.id),
                                      minimumTriggerInterval: set.minimumTriggerInterval, actionCategories: set.actionCategories)
                let writer = try makeWriter(base, vocabulary, symbols)
                return try writer.apply(split.delta(set.triggers))
            }
        }
    }
}
