import Foundation
import TriggerKit

/// Compares matchers with `reference` event by event on generated cases (`RuleCaseGenerator`), and
/// cuts each disagreement down to a small case (`CaseShrinker`). `bench conform --generate` runs it.
package struct GeneratedCheck {
    /// A matcher under test: built from the corpus text (plugins read it), the decoded set, its
    /// vocabulary and the symbol table the events were interned with (a delta writer's).
    package struct Contender: Sendable {
        package typealias Make = @Sendable (_ corpusJSON: [UInt8], TriggerSet, Vocabulary, SymbolTable) throws -> any Matcher
        package var name: String
        /// Built on a base set and handed a delta that makes the corpus (`DeltaSplit`).
        package var throughDelta: Bool
        package var make: Make

        package init(name: String, throughDelta: Bool = false, make: @escaping Make) {
            self.name = name
            self.throughDelta = throughDelta
            self.make = make
        }

        package init(strategy: StrategyRegistry.Strategy) {
            self.init(name: strategy.name) { _, set, vocabulary, _ in try strategy.make(set, vocabulary) }
        }

        /// A plugin, built from the corpus text as every plugin is.
        package init(plugin library: PluginLibrary) {
            self.init(name: library.strategyName) { json, set, vocabulary, _ in try library.strategy(corpusJSON: json, of: set).make(set, vocabulary) }
        }

        /// Every built-in strategy but `reference` and `floor`, and the delta writers of the two that apply deltas.
        package static var builtIn: [Contender] {
            StrategyRegistry.all.filter { $0.name != ReferenceMatcher.strategyName && $0.name != FloorMatcher.strategyName }
                .map(Contender.init(strategy:)) + DeltaSplit.contenders()
        }
    }

    /// One event of a case on which a contender and `reference` disagree.
    package struct Disagreement: Sendable {
        /// Index into the case's events.
        package var event: Int
        package var expected: [Int]
        package var got: [Int]
        /// `match`, `match_batch`, or `build` when the contender refused the corpus.
        package var entry: String
    }

    /// A disagreement found and shrunk.
    package struct Finding: Sendable {
        package var contender: String
        package var throughDelta = false
        package var seed: UInt64
        package var round: Int
        package var shrunk: RuleCase
        package var disagreement: Disagreement
        package var summary: String
    }

    /// A case decoded and answered by `reference`.
    package struct Evaluated {
        var corpusJSON: [UInt8]
        var set: TriggerSet
        var vocabulary: Vocabulary
        var columns: EventColumns
        /// For each decoded event, its index in the case's events (invalid events are skipped).
        package var eventOf: [Int]
        package var expected: [[Int]]
    }

    /// Decodes the case as a user's files would be (text, then the decoders); nil when the corpus is refused.
    package static func evaluate(_ c: RuleCase) -> Evaluated? {
        let bytes = Array(c.corpusText.utf8)
        guard let set = try? CorpusDecoder.decode(bytes: bytes) else { return nil }
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        var eventOf: [Int] = []
        for (k, line) in c.eventLines.enumerated() {
            guard let json = try? EventDecoder.parseLine(Array(line.utf8)),
                  let event = try? EventDecoder.decode(json, categories: set.actionCategories) else { continue }
            columns.append(event)
            eventOf.append(k)
        }
        let reference = ReferenceMatcher(set)
        let expected = columns.withView { view in (0..<view.count).map { reference.match(view.event(at: $0)) } }
        return Evaluated(corpusJSON: bytes, set: set, vocabulary: vocabulary, columns: columns, eventOf: eventOf, expected: expected)
    }

    /// The first event `contender` answers differently from `reference`, or nil when they agree on all
    /// or when a plugin's `create` refused the corpus (a partial port: `refused` hears its reason).
    static func firstDisagreement(_ contender: Contender, on evaluated: Evaluated, refused: (String) -> Void = { _ in }) -> Disagreement? {
        let matcher: any Matcher
        do {
            matcher = try contender.make(evaluated.corpusJSON, evaluated.set, evaluated.vocabulary, evaluated.columns.symbols)
        } catch let error as InputError where error.path == PluginMatcher.refusalPath {
            refused(error.reason)
            return nil
        } catch {
            return Disagreement(event: -1, expected: [], got: [], entry: "build")
        }
        var found: Disagreement?
        let invalid = Conformance.answer(matcher, columns: evaluated.columns, count: evaluated.eventOf.count) { i, scratch, entry in
            guard found == nil else { return }
            let got = scratch.sortedResults
            if got != evaluated.expected[i] {
                found = Disagreement(event: evaluated.eventOf[i], expected: evaluated.expected[i], got: got, entry: entry)
            }
        }
        if found == nil, invalid > 0 { found = Disagreement(event: -1, expected: [], got: [], entry: "ABI") }
        return found
    }

    /// What one run covered.
    package struct Tally: Sendable {
        package var rounds = 0
        package var events = 0
        package var comparisons = 0
        /// Generated corpora the decoder refused (a generator bug: each should be 0).
        package var refusedCorpora = 0
        package var triggers = 0
        /// Per contender, the cases its `create` refused (a partial plugin): not checked, not a finding.
        package var refusedByContender: [String: Int] = [:]
    }

    package let contenders: [Contender]
    package let seed: UInt64
    /// Seconds the shrinker may spend on one disagreement before it keeps what it has.
    package var shrinkBudget: TimeInterval = 30

    package init(contenders: [Contender], seed: UInt64) {
        self.contenders = contenders
        self.seed = seed
    }

    /// Runs rounds until `rounds` are done or `deadline` passes; a contender that disagrees once is
    /// shrunk, reported through `found` and left out of later rounds.
    package func run(rounds: Int, until deadline: Date?, progress: (Tally) -> Void = { _ in },
                    found: (Finding) throws -> Void) rethrows -> Tally {
        var tally = Tally()
        var active = contenders
        var round = 0
        // At least one round, however short the deadline: a check that checked nothing is no pass.
        while round < rounds, !active.isEmpty, round == 0 || deadline.map({ Date() < $0 }) ?? true {
            let generated = RuleCaseGenerator.make(seed: seed, round: round)
            defer { round += 1 }
            tally.rounds += 1
            guard let evaluated = Self.evaluate(generated) else {
                tally.refusedCorpora += 1
                continue
            }
            tally.events += evaluated.eventOf.count
            tally.triggers += evaluated.set.triggers.count
            for contender in active {
                tally.comparisons += evaluated.eventOf.count
                guard let disagreement = Self.firstDisagreement(contender, on: evaluated, refused: { _ in
                    tally.refusedByContender[contender.name, default: 0] += 1
                }) else { continue }
                let shrunk = CaseShrinker(contender: contender, budget: shrinkBudget).shrink(generated, first: disagreement)
                try found(Finding(contender: contender.name, throughDelta: contender.throughDelta, seed: seed, round: round, shrunk: shrunk.case,
                                  disagreement: shrunk.disagreement, summary: CaseSummary.line(shrunk.case, shrunk.disagreement)))
                active.removeAll { $0.name == contender.name }
            }
            progress(tally)
        }
        return tally
    }
}
