import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// The report's line on how far apart each row's repetitions were, and its warning on an unsteady host.
final class RepetitionSpreadTests: XCTestCase {
    func report(_ results: [StrategyResult]) -> RunReport {
        RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    /// The table of rows named with their repetitions' means; each row's mean is the mean of those.
    func table(_ rows: [(String, [Double])]) -> String {
        report(rows.map { name, samples in
            var r = strategyResult(name, samples: samples)
            r.timing.nsPerEvent.mean = samples.reduce(0, +) / Double(samples.count)
            return r
        }).table()
    }

    func testSteadyRepetitionsGetALineAndNoWarning() {
        let table = table([("compiled", [24, 25, 24.5]), ("floor", [7.5, 7.6])])
        XCTAssertTrue(table.contains("repetitions, fastest–slowest mean ns/event: compiled 24.0–25.0 (+4 %), floor 7.5–7.6 (+1 %)"), table)
        XCTAssertFalse(table.contains("note:"), table)
    }

    func testASpreadThatChangesNoConclusionIsNotAWarning() {
        let table = table([("compiled", [24, 30]), ("floor", [7.5, 7.6])])
        XCTAssertTrue(table.contains("compiled 24.0–30.0 (+25 %)"), table)
        XCTAssertFalse(table.contains("note:"), table)
    }

    func testRowsCloserThanTheirSpreadAreNamedWithWhatToDo() {
        let table = table([("compiled", [24, 30]), ("predicate-index", [25, 26])])
        XCTAssertTrue(table.contains("note: predicate-index and compiled differ by 6 %, less than their repetitions' spread (25 %): their order in this run is the host's noise. For a verdict, rerun with more --repetitions"), table)
    }

    func testOneRepetitionPrintsNothing() {
        let table = report([strategyResult("compiled", samples: nil)]).table()
        XCTAssertFalse(table.contains("repetitions, fastest"), table)
    }
}
