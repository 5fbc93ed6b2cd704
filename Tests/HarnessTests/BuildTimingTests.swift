import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

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

    /// The deltas `bench run --delta-triggers 10` publishes on `default` are redirected, every one:
    /// docs/results.md's delta figures are for that path, and a change that sent them back to the
    /// layer would change them without failing anything else.
    func testTheBenchsDeltasOnDefaultAreAllRedirected() throws {
        let set = try WorkloadGenerator.corpus(WorkloadSpec.load("default"))
        let strategies = try ["compiled", "predicate-index", "indexed"].map(StrategyRegistry.option)
        let rows = try BuildTiming.measureDeltas(set, strategies: strategies, triggers: 10, deltas: 20, warmup: 2)
        XCTAssertEqual(rows.map(\.redirected), [20, 20, 0])
        XCTAssertEqual(rows.map(\.fullRebuilds), [0, 0, 20])
    }

    /// `--pause-ms`: each timed build follows a sleep, and the sleep is not part of the build's time.
    func testPausesComeBeforeEachBuildAndAreNotTimed() throws {
        let spec = try WorkloadGenerator.corpus(WorkloadSpec.load("tiny"))
        var pauses: [Int] = []
        let rows = try BuildTiming.measure(spec, strategies: ["floor"], builds: 4, warmup: 0, pauseMs: 25, sleep: { pauses.append($0) })
        XCTAssertEqual(pauses, [25, 25, 25, 25], "one pause of --pause-ms before each timed build")
        XCTAssertEqual(rows[0].builds, 4)
    }
}
