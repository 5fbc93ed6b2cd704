import Foundation
import Harness
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
        XCTAssertEqual(Statistics.median([3, 1, 2]), 2)
        XCTAssertEqual(Statistics.median([4, 1, 3, 2]), 2.5)
    }
}
