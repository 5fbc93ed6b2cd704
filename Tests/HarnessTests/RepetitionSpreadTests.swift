import Foundation
@testable import Harness
import TriggerKit
import Workload
import XCTest

/// The report's line on how far apart each row's repetitions were, and its warning on an unsteady host.
final class RepetitionSpreadTests: XCTestCase {
    func report(_ results: [StrategyResult]) -> RunReport {
        RunReport(build: "release", environment: Environment(cpu: "c", cores: 2, kernel: "k", swift: "6.3.1", jemalloc: "5.3.0", mallocConf: nil),
                  workload: .init(name: "tiny", seed: 7, events: 100, triggers: 10), results: results)
    }

    func testSteadyRepetitionsGetALineAndNoWarning() {
        var a = strategyResult("compiled", samples: [24, 25, 24.5]), b = strategyResult("floor", samples: [7.5, 7.6])
        a.timing.nsPerEvent.mean = 24.5
        b.timing.nsPerEvent.mean = 7.55
        let table = report([a, b]).table()
        XCTAssertTrue(table.contains("repetitions, fastest–slowest mean ns/event: compiled 24.0–25.0 (+4 %), floor 7.5–7.6 (+1 %)"), table)
        XCTAssertFalse(table.contains("note:"), table)
    }

    func testASpreadThatChangesNoConclusionIsNotAWarning() {
        var a = strategyResult("compiled", samples: [24, 30]), b = strategyResult("floor", samples: [7.5, 7.6])
        a.timing.nsPerEvent.mean = 27
        b.timing.nsPerEvent.mean = 7.55
        let table = report([a, b]).table()
        XCTAssertTrue(table.contains("compiled 24.0–30.0 (+25 %)"), table)
        XCTAssertFalse(table.contains("note:"), table)
    }

    func testRowsCloserThanTheirSpreadAreNamedWithWhatToDo() {
        var a = strategyResult("compiled", samples: [24, 30]), b = strategyResult("predicate-index", samples: [25, 26])
        a.timing.nsPerEvent.mean = 27
        b.timing.nsPerEvent.mean = 25.5
        let table = report([a, b]).table()
        XCTAssertTrue(table.contains("note: predicate-index and compiled differ by 6 %, less than their repetitions' spread (25 %): their order in this run is the host's noise. For a verdict, rerun with more --repetitions"), table)
    }

    func testOneRepetitionPrintsNothing() {
        let table = report([strategyResult("compiled", samples: nil)]).table()
        XCTAssertFalse(table.contains("repetitions, fastest"), table)
    }
}
