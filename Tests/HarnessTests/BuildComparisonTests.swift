import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// A run report with compiled's and floor's ns/event per repetition.
func comparisonRun(_ compiled: [Double], _ floor: [Double], checksum: UInt64 = 0xabc) -> RunReport {
    var c = strategyResult("compiled", checksum: checksum, samples: compiled)
    c.timing.nsPerEvent.mean = compiled.reduce(0, +) / Double(compiled.count)
    var f = strategyResult("floor", checksum: 0, samples: floor)
    f.timing.nsPerEvent.mean = floor.reduce(0, +) / Double(floor.count)
    return RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                     workload: .init(name: "w", seed: 1, events: 100, triggers: 10), results: [c, f])
}

final class BuildComparisonTests: XCTestCase {
    func run(_ compiled: [Double], _ floor: [Double], checksum: UInt64 = 0xabc) -> RunReport { comparisonRun(compiled, floor, checksum: checksum) }

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

    func testRunsThatDifferAmongThemselvesWidenTheInterval() throws {
        // Each run steady within itself, the runs several percent apart (as processes of one binary are
        // here): three runs per build cannot show a 3.5 % change, however many repetitions each has.
        let steady = { (ratio: Double) in comparisonRun(Array(repeating: ratio * 10, count: 8).enumerated().map { $0.element + 0.001 * Double($0.offset) }, Array(repeating: 10, count: 8)) }
        let comparison = try BuildComparison(reports: [
            (build: "a", runs: [steady(2.78), steady(2.84), steady(2.95)]), (build: "b", runs: [steady(2.94), steady(2.86), steady(3.02)]),
        ], baseline: "floor")
        let change = try XCTUnwrap(comparison.changes(baseline: "floor").first)
        XCTAssertGreaterThan(change.ratio, 1.03)
        XCTAssertLessThanOrEqual(change.interval[0], 1, "\(change.interval)")
        XCTAssertNotEqual(change.verdict(minimumEffect: 0.03, tolerance: 0.05), .slower)
    }

    func testBuildsThatMatchDifferentlyAreRefused() {
        XCTAssertThrowsError(try BuildComparison(reports: [(build: "a", runs: [run([1], [1])]), (build: "b", runs: [run([1], [1], checksum: 0xabd)])],
                                                 baseline: "floor")) { XCTAssert("\($0)".contains("build b matched with checksum 0000000000000abd")) }
    }

    /// An older build writes results schema 2, whose checksums use the earlier match digest: its checksum
    /// differing is no difference in matching, its match count differing is.
    func testAnOlderBuildIsComparedByMatchCountsNotChecksums() throws {
        var old = run([1], [1], checksum: 0x123)
        old.schema = "trigger-bench-results/2"
        XCTAssertNoThrow(try BuildComparison(reports: [(build: "old", runs: [old]), (build: "new", runs: [run([1], [1])])], baseline: "floor"))
        old.results[0].matches.checksum.matches += 1
        XCTAssertThrowsError(try BuildComparison(reports: [(build: "old", runs: [old]), (build: "new", runs: [run([1], [1])])], baseline: "floor")) {
            XCTAssertEqual("\($0)", "compiled: build new found 5 matches, build old 6")
        }
        // Two runs of the older build are still held to one checksum.
        var other = old
        other.results[0].matches.checksum.value = 0x124
        XCTAssertThrowsError(try BuildComparison(reports: [(build: "old", runs: [old]), (build: "older", runs: [other])], baseline: "floor")) {
            XCTAssert("\($0)".contains("build older matched with checksum 0000000000000124"), "\($0)")
        }
    }
}
