import Foundation
@testable import Harness
import TriggerKit
import Workload
import XCTest

final class MannWhitneyTests: XCTestCase {
    func testCompletelySeparatedSamplesOfFiveGiveTheExactMinimumPValue() {
        let (u, p) = MannWhitney.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        XCTAssertEqual(u, 0)
        XCTAssertEqual(p, 2.0 / 252.0, accuracy: 1e-12)  // 2 of C(10, 5) arrangements are as extreme
    }

    func testInterleavedSamplesAreNotSignificant() {
        let (_, p) = MannWhitney.test([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])
        XCTAssertGreaterThan(p, 0.5)
    }

    func testLargeSamplesUseTheNormalApproximation() {
        let x = (0..<40).map { Double($0) }, y = (0..<40).map { Double($0) + 30 }
        let (_, p) = MannWhitney.test(x, y)
        XCTAssertLessThan(p, 1e-6)
    }

    func testMedianOfEvenAndOddSamples() {
        XCTAssertEqual(MannWhitney.median([3, 1, 2]), 2)
        XCTAssertEqual(MannWhitney.median([4, 1, 3, 2]), 2.5)
    }
}

/// A result with everything but the named fields fixed (shared by the gate and ratio tests).
func strategyResult(_ strategy: String = "compiled", checksum: String = "abc", allocations: Double = 0, instructions: Double? = 1000,
                    samples: [Double]? = [10, 10.1, 9.9, 10.05, 9.95]) -> StrategyResult {
    StrategyResult(
        strategy: strategy, publication: .none, threads: 1, events: 100, matches: 5, checksum: checksum, eventsPerSecond: 1e8,
        nsPerEvent: .init(mean: 10, p50: 10, p90: 11, p99: 12, p999: 13, max: 20), allocationsPerEvent: allocations,
        bytesPerEvent: 0, jemalloc: .init(allocated: 0, active: 0, resident: 0, mapped: 0, metadata: 0, retained: 0),
        matchesPerEvent: 0.05, candidatesPerEvent: 1, cpuSeconds: 1, wallSeconds: 1, speedupVsReference: nil,
        ratioToFloor: nil, buildSeconds: 0, publications: nil, rebuildMsPerPublication: nil, rebuildCpuMsPerPublication: nil, perThreadEventsPerSecond: nil, nsPerEventSamples: samples,
        instructionsPerEvent: instructions, heapBytesBeforePublishing: nil, heapBytesAfterPublishing: nil)
}

final class GateTests: XCTestCase {
    func report(_ results: [StrategyResult], cpu: String = "cpu", build: String = "release") -> RunReport {
        RunReport(build: build, environment: Environment(cpu: cpu, cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    func gate(_ base: StrategyResult, _ current: StrategyResult, _ options: Gate.Options = .init()) throws -> Gate.Report {
        try Gate.compare(baseline: report([base]), current: report([current]), options: options)
    }

    func testIdenticalResultsPass() throws {
        XCTAssertTrue(try gate(strategyResult(), strategyResult()).regressions.isEmpty)
    }

    func testOneExtraAllocationPerEventFails() throws {
        let r = try gate(strategyResult(), strategyResult(allocations: 1))
        XCTAssertEqual(r.regressions.map(\.metric), ["allocations/event"])
    }

    func testChangedChecksumFails() throws {
        XCTAssertEqual(try gate(strategyResult(), strategyResult(checksum: "abd")).regressions.map(\.metric), ["checksum"])
    }

    func testInstructionsBeyondToleranceFailAndWithinPass() throws {
        XCTAssertEqual(try gate(strategyResult(), strategyResult(instructions: 1030)).regressions.map(\.metric), ["instructions/event"])
        XCTAssertTrue(try gate(strategyResult(), strategyResult(instructions: 1015)).regressions.isEmpty)
        XCTAssertEqual(try gate(strategyResult(), strategyResult(instructions: nil)).regressions.map(\.metric), ["instructions/event"])
    }

    func testSignificantSlowdownFailsOnlyWhenEnforced() throws {
        let slower = strategyResult(samples: [12, 12.1, 11.9, 12.05, 11.95])
        XCTAssertEqual(try gate(strategyResult(), slower).regressions.map(\.metric), ["ns/event (median)"])
        var options = Gate.Options()
        options.wallClock = .informational
        XCTAssertTrue(try gate(strategyResult(), slower, options).regressions.isEmpty)
    }

    func testSlowdownBelowTheMinimumEffectPasses() throws {
        XCTAssertTrue(try gate(strategyResult(), strategyResult(samples: [10.3, 10.4, 10.2, 10.35, 10.25])).regressions.isEmpty)
    }

    func testUnlikeEnvironmentsAreRefusedUnlessAllowed() throws {
        XCTAssertThrowsError(try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], cpu: "other"), options: .init()))
        XCTAssertThrowsError(try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], build: "debug"), options: .init()))
        var options = Gate.Options()
        options.allowedDifferences = ["cpu"]
        let r = try Gate.compare(baseline: report([strategyResult()]), current: report([strategyResult()], cpu: "other"), options: options)
        XCTAssertEqual(r.notes.filter { $0.hasPrefix("environment differs, allowed by --allow-difference: cpu") }.count, 1, "\(r.notes)")
    }

    func testMissingRowFails() throws {
        let r = try Gate.compare(baseline: report([strategyResult(), strategyResult("floor")]), current: report([strategyResult()]), options: .init())
        XCTAssertEqual(r.regressions.map(\.row), ["floor none ×1"])
    }

    func testMalformedResultsFileNamesTheJSONPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-results-\(getpid()).json").path
        try Data(#"{"schema":"trigger-bench-results/1","build":"release","results":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(path)) { error in
            XCTAssertTrue("\(error)".contains("environment"), "\(error)")
        }
    }
}

final class BuildTimingTests: XCTestCase {
    func testEveryStrategyIsBuiltAndTimedAndAnUnknownOneIsRefused() throws {
        let spec = try WorkloadGenerator.corpus(WorkloadSpec.load("tiny"))
        let rows = try BuildTiming.measure(spec, strategies: ["compiled", "floor"], builds: 5, warmup: 1)
        XCTAssertEqual(rows.map(\.strategy), ["compiled", "floor"])
        for r in rows {
            XCTAssertEqual(r.builds, 5)
            XCTAssertGreaterThan(r.p50Microseconds, 0)
            XCTAssertLessThanOrEqual(r.p50Microseconds, r.p99Microseconds)
        }
        XCTAssertThrowsError(try BuildTiming.measure(spec, strategies: ["fastest"], builds: 1)) { error in
            XCTAssertTrue(error is InputError, "\(error)")
        }
    }

    /// `--pause-ms`: each timed build follows a sleep, and the sleep is not part of the build's time.
    func testPausesComeBeforeEachBuildAndAreNotTimed() throws {
        let spec = try WorkloadGenerator.corpus(WorkloadSpec.load("tiny"))
        let start = Date()
        let rows = try BuildTiming.measure(spec, strategies: ["floor"], builds: 4, warmup: 0, pauseMs: 25)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.1)
        XCTAssertLessThan(rows[0].p99Microseconds, 25_000)
    }
}

final class RatioTests: XCTestCase {
    func timed(_ strategy: String, mean: Double, samples: [Double]?) -> StrategyResult {
        var r = strategyResult(strategy, samples: samples)
        r.nsPerEvent.mean = mean
        return r
    }

    func testWithRepetitionsTheRatioIsTheMedianOfTheRatiosWithinEachRepetition() {
        // Repetition 3 hit a slow spell on both sides; repetition 5 only on the floor side.
        let compiled = timed("compiled", mean: 36, samples: [30, 31, 60, 29, 30])
        let floor = timed("floor", mean: 14, samples: [10, 10, 20, 10, 20])
        XCTAssertEqual(Runner.ratio(compiled, floor), 3.0, accuracy: 1e-12)  // ratios 3, 3.1, 3, 2.9, 1.5
        XCTAssertEqual(compiled.nsPerEvent.mean / floor.nsPerEvent.mean, 2.571, accuracy: 1e-3)  // what the means said
    }

    func testWithoutRepetitionsOrWithUnequalCountsTheRatioOfTheMeans() {
        let floor = timed("floor", mean: 8, samples: nil)
        XCTAssertEqual(Runner.ratio(timed("compiled", mean: 24, samples: nil), floor), 3.0)
        XCTAssertEqual(Runner.ratio(timed("compiled", mean: 24, samples: [20, 30]), timed("floor", mean: 8, samples: [8, 8, 8])), 3.0)
    }

    func testAddRatiosFillsBothColumnsFromPairedRepetitions() {
        var results = [timed("reference", mean: 1000, samples: [1000, 2000]), timed("compiled", mean: 20, samples: [10, 40]),
                       timed("floor", mean: 5, samples: [5, 10])]
        Runner.addRatios(&results)
        XCTAssertEqual(results[1].speedupVsReference!, 75, accuracy: 1e-9)  // median of 100 and 50
        XCTAssertEqual(results[1].ratioToFloor!, 3, accuracy: 1e-9)  // median of 2 and 4
        XCTAssertEqual(results[2].ratioToFloor!, 1, accuracy: 1e-9)
    }
}

final class BuildComparisonTests: XCTestCase {
    func run(_ compiled: [Double], _ floor: [Double], checksum: String = "abc") -> RunReport {
        var c = strategyResult("compiled", checksum: checksum, samples: compiled)
        c.nsPerEvent.mean = compiled.reduce(0, +) / Double(compiled.count)
        var f = strategyResult("floor", checksum: "00000000", samples: floor)
        f.nsPerEvent.mean = floor.reduce(0, +) / Double(floor.count)
        return RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                         workload: .init(name: "w", seed: 1, events: 100, triggers: 10), results: [c, f])
    }

    func testRunsOfABuildArePooledAndRatiosPairedWithinARepetition() throws {
        let comparison = try BuildComparison(reports: [
            (build: "old", runs: [run([30, 33], [10, 11]), run([60, 31], [20, 10])]),  // the third repetition hit a slow spell
            (build: "new", runs: [run([24, 26], [8, 8.5]), run([25, 23], [8, 7.9])]),
        ], baseline: "floor")
        XCTAssertEqual(comparison.rows.map(\.build), ["old", "old", "new", "new"])
        let old = comparison.rows[0], new = comparison.rows[2]
        XCTAssertEqual(old.bestNs, 30)
        XCTAssertEqual(old.medianNs, 32)  // 30, 31, 33, 60
        XCTAssertEqual(old.medianRatio!, 3.0, accuracy: 1e-12)  // ratios 3, 3, 3, 3.1
        XCTAssertEqual(old.bestRatio!, 3.0, accuracy: 1e-12)
        XCTAssertEqual(old.samples, 4)
        XCTAssertEqual(new.bestRatio!, 23 / 7.9, accuracy: 1e-12)
        XCTAssertNil(comparison.rows[1].medianRatio)
        XCTAssert(comparison.table(baseline: "floor").contains("new   compiled"))
    }

    func testTheChangeBetweenBuildsCarriesAnIntervalAndSaysWhetherItIncludesOne() throws {
        let faster = try BuildComparison(reports: [
            (build: "old", runs: [run([30, 31, 30.5], [10, 10, 10])]), (build: "new", runs: [run([24, 25, 24.5], [10, 10, 10])]),
        ], baseline: "floor")
        let line = try XCTUnwrap(faster.changeLines(baseline: "floor").first)
        XCTAssertTrue(line.hasPrefix("compiled: ×floor of new over old = 0.803, 95 % interval ["), line)
        XCTAssertTrue(line.hasSuffix("below 1: new is faster"), line)
        let same = try BuildComparison(reports: [
            (build: "a", runs: [run([30, 32, 31], [10, 10, 10])]), (build: "b", runs: [run([31, 30, 32], [10, 10, 10])]),
        ], baseline: "floor")
        XCTAssertTrue(try XCTUnwrap(same.changeLines(baseline: "floor").first).hasSuffix("includes 1: no difference shown"))
    }

    func testBuildsThatMatchDifferentlyAreRefused() {
        XCTAssertThrowsError(try BuildComparison(reports: [(build: "a", runs: [run([1], [1])]), (build: "b", runs: [run([1], [1], checksum: "abd")])],
                                                 baseline: "floor")) { XCTAssert("\($0)".contains("build b matched with checksum abd")) }
    }
}

/// The report's line on how far apart each row's repetitions were, and its warning on an unsteady host.
final class RepetitionSpreadTests: XCTestCase {
    func report(_ results: [StrategyResult]) -> RunReport {
        RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    func testSteadyRepetitionsGetALineAndNoWarning() {
        let table = report([strategyResult("compiled", samples: [24, 25, 24.5]), strategyResult("floor", samples: [7.5, 7.6])]).table()
        XCTAssertTrue(table.contains("repetitions, fastest–slowest mean ns/event: compiled 24.0–25.0 (+4 %), floor 7.5–7.6 (+1 %)"), table)
        XCTAssertFalse(table.contains("unsteady"), table)
    }

    func testASpreadAboveTenPercentIsNamed() {
        let table = report([strategyResult("compiled", samples: [24, 30]), strategyResult("floor", samples: [7.5, 7.6])]).table()
        XCTAssertTrue(table.contains("the host was unsteady during this run (compiled's repetitions differ by 25 %)"), table)
    }

    func testOneRepetitionPrintsNothing() {
        let table = report([strategyResult("compiled", samples: nil)]).table()
        XCTAssertFalse(table.contains("repetitions, fastest"), table)
    }
}
