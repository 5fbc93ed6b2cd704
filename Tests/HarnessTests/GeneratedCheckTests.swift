import Foundation
import Harness
import TriggerKit
import XCTest

/// `bench conform --generate`: cases are reproducible and valid, the built-in strategies agree on
/// them, and a planted bug is found and shrunk to one trigger and one event, written as a case that
/// `bench conform` then fails.
final class GeneratedCheckTests: XCTestCase {
    /// `compiled` over a set whose clauses keep only their first two filters: the class of port that
    /// drops the tail of a list.
    static let planted = GeneratedCheck.Contender(name: "planted") { _, set, vocabulary, _ in
        let cut = set.triggers.map { trigger -> Trigger in
            var t = trigger
            t.conditions = t.conditions.map { c in
                switch c {
                case .customEvent(let name, let f): return .customEvent(name: name, filters: FilterCNF(clauses: f.clauses.map { Array($0.prefix(2)) }))
                case .purchase(let p, let f): return .purchase(productID: p, filters: FilterCNF(clauses: f.clauses.map { Array($0.prefix(2)) }))
                default: return c
                }
            }
            return t
        }
        return CompiledMatcher(TriggerSet(triggers: cut, minimumTriggerInterval: set.minimumTriggerInterval,
                                          actionCategories: set.actionCategories), vocabulary: vocabulary)
    }

    func testARoundIsTheSameCaseForItsSeedAndEveryShapeDecodes() {
        XCTAssertEqual(RuleCaseGenerator.make(seed: 5, round: 3).corpusText, RuleCaseGenerator.make(seed: 5, round: 3).corpusText)
        XCTAssertEqual(RuleCaseGenerator.make(seed: 5, round: 3).eventLines, RuleCaseGenerator.make(seed: 5, round: 3).eventLines)
        XCTAssertNotEqual(RuleCaseGenerator.make(seed: 5, round: 3).corpusText, RuleCaseGenerator.make(seed: 6, round: 3).corpusText)
        var decodedEvents = 0, events = 0, matched = 0
        for round in 0..<60 where RuleCaseGenerator.make(seed: 9, round: round).triggers.count < 1_000 {
            let c = RuleCaseGenerator.make(seed: 9, round: round)
            guard let evaluated = GeneratedCheck.evaluate(c) else { return XCTFail("round \(round): the corpus was refused") }
            events += c.events.count
            decodedEvents += evaluated.eventOf.count
            matched += evaluated.expected.filter { !$0.isEmpty }.count
        }
        // Aimed, not random: most events decode and a good share match something.
        XCTAssertGreaterThan(decodedEvents, events * 9 / 10)
        XCTAssertGreaterThan(matched, decodedEvents / 4)
    }

    func testBuiltInStrategiesAgreeWithReference() throws {
        let contenders = GeneratedCheck.Contender.builtIn
        XCTAssertEqual(contenders.filter(\.throughDelta).count, 4)
        let tally = GeneratedCheck(contenders: contenders, seed: 2).run(rounds: 12, until: nil) { finding in
            XCTFail("\(finding.contender): \(finding.summary)")
        }
        XCTAssertEqual(tally.rounds, 12)
        XCTAssertEqual(tally.refusedCorpora, 0)
    }

    func testAPlantedBugIsShrunkToOneTriggerAndOneEventAndWrittenAsACase() throws {
        var findings: [GeneratedCheck.Finding] = []
        _ = GeneratedCheck(contenders: [Self.planted], seed: 1).run(rounds: 200, until: nil) { findings.append($0) }
        let finding = try XCTUnwrap(findings.first, "the planted bug was not found in 200 rounds")
        XCTAssertEqual(finding.shrunk.triggers.count, 1, finding.shrunk.corpusText)
        XCTAssertEqual(finding.shrunk.events.count, 1)
        XCTAssertTrue(finding.summary.contains(" or "), "the summary names the clause whose third filter decides: \(finding.summary)")

        let folder = NSTemporaryDirectory() + "generated-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CaseSummary.write(finding, to: folder, rerun: "bench conform --generate --seed 1")
        XCTAssertTrue(try String(contentsOfFile: folder + "/rule.txt", encoding: .utf8).hasPrefix("planted "))
        let planted = StrategyRegistry.Strategy(name: "planted", summary: "", make: { set, v in try Self.planted.make([], set, v, SymbolTable()) })
        XCTAssertFalse(try Conformance.check(case: folder) { _ in planted }.disagreements.isEmpty, "the written case fails the planted matcher")
        XCTAssertTrue(try Conformance.check(case: folder) { _ in StrategyRegistry.named("compiled")! }.disagreements.isEmpty)
    }

    func testReduceKeepsOnlyWhatThePredicateNeeds() {
        XCTAssertEqual(CaseShrinker.reduce(Array(0..<100)) { $0.contains(17) && $0.contains(63) }, [17, 63])
        XCTAssertEqual(CaseShrinker.reduce(Array(0..<40)) { $0.count >= 32 }.count, 32)
    }
}
