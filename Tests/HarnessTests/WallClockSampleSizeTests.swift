import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// The wall-clock tier says when its samples are too few to ever be significant.
final class WallClockSampleSizeTests: XCTestCase {
    func testTheSmallestPossiblePValueOfSmallSamples() {
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 3, n2: 3), 0.1, accuracy: 1e-12)
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 4, n2: 4), 2.0 / 70, accuracy: 1e-12)
        XCTAssertEqual(MannWhitney.smallestPossibleP(n1: 5, n2: 5), 2.0 / 252, accuracy: 1e-12)
    }

    func testThreeRepetitionsEachAreReportedAsUntestableNotAsUnchanged() throws {
        let slow = strategyResult(samples: [20, 21, 22]), fast = strategyResult(samples: [10, 10.5, 11])
        let finding = try XCTUnwrap(Gate.compareRow("r", fast, slow, options: .init()).last)
        XCTAssertEqual(finding.verdict, .informational)
        XCTAssertEqual(finding.note, "3 vs 3 samples cannot reach p < 0.01: no test possible (record both with --repetitions 5 or more)")
    }
}
