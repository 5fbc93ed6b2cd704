import Foundation
import Harness
import XCTest

final class ABDecisionTests: XCTestCase {
    /// Rounds whose compiled/floor ratios come from a script, one list per build and round.
    final class ScriptedRounds: ComparisonRounds {
        let script: (Int) -> (old: [Double], new: [Double])
        var reports: [(build: String, runs: [RunReport])] = [(build: "old", runs: []), (build: "new", runs: [])]
        private(set) var count = 0
        /// Seconds on a pretend clock: each round takes 5.
        var clock = 0.0
        init(_ script: @escaping (Int) -> (old: [Double], new: [Double])) { self.script = script }

        func add(progress: (String) -> Void) throws {
            let (old, new) = script(count)
            reports[0].runs.append(comparisonRun(old.map { $0 * 10 }, old.map { _ in 10 }))
            reports[1].runs.append(comparisonRun(new.map { $0 * 10 }, new.map { _ in 10 }))
            count += 1
            clock += 5
        }

        func comparison(baseline: String) throws -> BuildComparison { try BuildComparison(reports: reports, baseline: baseline) }
    }

    /// Deciding, floor as baseline, a 3 % minimum effect and a 5 % tolerance.
    func settings(initialRounds: Int = 3, maxSeconds: Double = 60) -> ABDecision.Settings {
        var s = ABDecision.Settings(baseline: "floor", deciding: true, initialRounds: initialRounds, maxSeconds: maxSeconds)
        s.minimumEffect = 0.03
        s.tolerance = 0.05
        return s
    }

    func decide(_ rounds: ScriptedRounds, maxSeconds: Double = 60) throws -> ABDecision {
        try ABDecision.measure(rounds, settings(maxSeconds: maxSeconds), now: { rounds.clock }).1
    }

    func testAWideIntervalIsNeverAPass() throws {
        // The loaded host's shape: the new build 10 % slower, but so noisy that the interval spans 1.
        let noisy = ScriptedRounds { k in (old: [1.5, 2.2, 3, 3.8, 4.5].map { $0 + 0.01 * Double(k) }, new: [1.65, 2.42, 3.3, 4.18, 4.95].map { $0 - 0.01 * Double(k) }) }
        let decision = try decide(noisy, maxSeconds: 20)
        XCTAssertEqual(decision.outcome, .inconclusive)
        XCTAssertEqual(decision.changes.first?.verdict, .undecided)
        XCTAssertLessThan(decision.changes[0].interval[0], 1)
        XCTAssertGreaterThan(decision.changes[0].interval[1], 1.05)
        XCTAssertTrue(decision.lines().last!.hasPrefix("ab gate: INCONCLUSIVE after"), "\(decision.lines())")
        XCTAssertGreaterThan(noisy.count, 3, "undecided comparisons take more rounds while the budget lasts")
        XCTAssertLessThanOrEqual(Double(noisy.count) * 5, 20, "no round starts that would overrun the budget")
    }

    func testMoreRoundsDecideWhatTheFirstCouldNot() throws {
        // Three noisy rounds, then quiet ones at a 10 % slowdown: the gate keeps going and fails.
        let settling = ScriptedRounds { k in k < 3 ? (old: [3, 1.5, 4.5, 2.1], new: [3.3, 1.6, 4.4, 2.5]) : (old: [3, 3.01, 2.99], new: [3.3, 3.31, 3.29]) }
        let decision = try decide(settling)
        XCTAssertEqual(decision.outcome, .fail)
        XCTAssertGreaterThan(settling.count, 3)
        XCTAssertTrue(decision.lines().contains { $0.hasPrefix("SLOWER: compiled of new is ×") })
    }

    func testANarrowIntervalBelowTheTolerancePassesAtOnce() throws {
        let quiet = ScriptedRounds { _ in (old: [3, 3.01, 2.99, 3.02], new: [3.01, 3.0, 3.02, 2.99]) }
        let decision = try decide(quiet)
        XCTAssertEqual(decision.outcome, .pass)
        XCTAssertEqual(quiet.count, 3)
        let json = String(decoding: try decision.json(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"outcome\" : \"pass\"") && json.contains("\"verdict\" : \"not-slower\""), json)
        XCTAssertTrue(json.contains("\"schema\" : \"trigger-bench-ab\\/1\""), json)
    }

    func testOneRunPerBuildDecidesNothing() throws {
        // Steady repetitions in one run give a narrow interval, but runs are the unit: a second round is taken.
        let quiet = ScriptedRounds { _ in (old: [3, 3.01, 2.99, 3.02], new: [3.01, 3.0, 3.02, 2.99]) }
        let decision = try ABDecision.measure(quiet, settings(initialRounds: 1), now: { quiet.clock })
        XCTAssertEqual(decision.1.outcome, .pass)
        XCTAssertEqual(quiet.count, 2)
        let once = try ABDecision.measure(ScriptedRounds { _ in (old: [3, 3.01], new: [3.5, 3.51]) }, settings(initialRounds: 1, maxSeconds: 0))
        XCTAssertEqual(once.1.outcome, .inconclusive, "one run per build and no time for another")
    }

    func testOnlyTheJudgedStrategiesDecide() throws {
        let slower = ScriptedRounds { _ in (old: [3, 3.01, 2.99], new: [3.3, 3.31, 3.29]) }
        var judged = settings(maxSeconds: 20)
        judged.judged = { $0.hasPrefix("plugin:") }
        let decision = try ABDecision.measure(slower, judged, now: { slower.clock })
        XCTAssertEqual(decision.1.changes.count, 0)
        XCTAssertEqual(decision.1.outcome, .inconclusive, "nothing judged is never a pass")
    }

    func testASlowdownBelowTheMinimumEffectWithANarrowIntervalPasses() {
        let small = BuildComparison.Change(strategy: "compiled", build: "new", ratio: 1.02, interval: [1.01, 1.03])
        XCTAssertEqual(small.verdict(minimumEffect: 0.03, tolerance: 0.05), .notSlower)
        let wide = BuildComparison.Change(strategy: "compiled", build: "new", ratio: 1.02, interval: [0.52, 1.43])
        XCTAssertEqual(wide.verdict(minimumEffect: 0.03, tolerance: 0.05), .undecided)
        let slower = BuildComparison.Change(strategy: "compiled", build: "new", ratio: 1.1, interval: [1.04, 1.43])
        XCTAssertEqual(slower.verdict(minimumEffect: 0.03, tolerance: 0.05), .slower)
    }
}
