import Harness
import XCTest

/// `bench fit --check` fails on time only when every round, of three or more, misses on one side: one
/// slow round on a busy host is noise, a twin that costs otherwise does so in every round.
final class TwinFitVerdictTests: XCTestCase {
    func row(_ ratios: [Double], candidates: Double = 10) -> TwinFit.Row {
        let median = ratios.sorted()[ratios.count / 2]
        return TwinFit.Row(strategy: "compiled", data: (100, 10, 2), twin: (100 * median, candidates, 2), roundRatios: ratios)
    }

    func testTimeFailsOnlyWhenEveryRoundMissesOnOneSide() {
        XCTAssertEqual(row([1.1, 0.9, 1.2]).timeVerdict, .within)
        XCTAssertEqual(row([1.4, 1.5, 1.6]).timeVerdict, .outside)
        XCTAssertEqual(row([0.5, 0.6, 0.7]).timeVerdict, .outside)
        XCTAssertEqual(row([4.6, 1.0, 1.4]).timeVerdict, .unsure, "one busy round")
        XCTAssertEqual(row([1.4, 1.5]).timeVerdict, .unsure, "two rounds cannot tell")
        XCTAssertTrue(row([1.4, 1.5, 1.6]).fails)
        XCTAssertFalse(row([4.6, 1.0, 1.4]).fails)
        XCTAssertTrue(row([1.0, 1.0, 1.0], candidates: 5).fails, "counts outside fail whatever the time")
    }

    func testEveryMissSaysWhatToChange() {
        let table = TwinFit.table([row([4.6, 1.0, 1.4]), row([1.0, 1.0, 1.0], candidates: 5)], events: 100)
        XCTAssertTrue(table.contains("time unsure"), table)
        XCTAssertTrue(table.contains("what to change:\n  compiled: ns/event"), table)
        XCTAssertTrue(table.contains("rerun with --repetitions 5"), table)
        XCTAssertTrue(table.contains("candidates 0.50×, matches 1.00× of the data's: fit on more of the log"), table)
        XCTAssertFalse(TwinFit.table([row([1.0, 1.0, 1.0])], events: 100).contains("what to change"))
    }
}
