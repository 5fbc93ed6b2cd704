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
