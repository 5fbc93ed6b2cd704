import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

final class RatioTests: XCTestCase {
    func timed(_ strategy: String, mean: Double, samples: [Double]?) -> StrategyResult {
        var r = strategyResult(strategy, samples: samples)
        r.timing.nsPerEvent.mean = mean
        return r
    }

    func testWithRepetitionsTheRatioIsTheMedianOfTheRatiosWithinEachRepetition() {
        // Repetition 3 hit a slow spell on both sides; repetition 5 only on the floor side.
        let compiled = timed("compiled", mean: 36, samples: [30, 31, 60, 29, 30])
        let floor = timed("floor", mean: 14, samples: [10, 10, 20, 10, 20])
        XCTAssertEqual(ResultRows.ratio(compiled.timing, floor.timing), 3.0, accuracy: 1e-12)  // ratios 3, 3.1, 3, 2.9, 1.5
        XCTAssertEqual(compiled.timing.nsPerEvent.mean / floor.timing.nsPerEvent.mean, 2.571, accuracy: 1e-3)  // what the means said
    }

    func testWithoutRepetitionsOrWithUnequalCountsTheRatioOfTheMeans() {
        let floor = timed("floor", mean: 8, samples: nil)
        XCTAssertEqual(ResultRows.ratio(timed("compiled", mean: 24, samples: nil).timing, floor.timing), 3.0)
        XCTAssertEqual(ResultRows.ratio(timed("compiled", mean: 24, samples: [20, 30]).timing, timed("floor", mean: 8, samples: [8, 8, 8]).timing), 3.0)
    }

    func testAddRatiosFillsBothColumnsFromPairedRepetitions() {
        let results = ResultRows.assemble([timed("reference", mean: 1000, samples: [1000, 2000]), timed("compiled", mean: 20, samples: [10, 40]),
                                           timed("floor", mean: 5, samples: [5, 10])].map {
            MeasuredRow(key: $0.key, matches: $0.matches, timing: $0.timing, memory: $0.memory, publishing: nil, latencyNs: nil)
        })
        XCTAssertEqual(results[1].ratios.speedupVsReference!, 75, accuracy: 1e-9)  // median of 100 and 50
        XCTAssertEqual(results[1].ratios.ratioToFloor!, 3, accuracy: 1e-9)  // median of 2 and 4
        XCTAssertEqual(results[2].ratios.ratioToFloor!, 1, accuracy: 1e-9)
    }
}
