import Foundation
import Harness
import TriggerKit
import XCTest

/// Every conformance case through `predicate-index` with its counting index forced onto every bucket
/// (by default only buckets of 256 conditions or more are counted, which no case has), and with
/// crowds and counting mixed: the boundary cases pin 2^53, -0, exact date bounds, mistyped values and
/// repeated keys, which the generated workloads of the differential tests rarely reach.
final class CountingIndexConformanceTests: XCTestCase {
    func testCountedBucketsAgreeWithEveryConformanceCase() throws {
        let variants: [(String, @Sendable (TriggerSet, Vocabulary) -> any Matcher)] = [
            ("counted", { PredicateIndexMatcher($0, vocabulary: $1, thresholds: .init(crowd: .max, counted: 1)) }),
            ("crowds and counted", { PredicateIndexMatcher($0, vocabulary: $1, thresholds: .init(crowd: 4, counted: 1)) }),
        ]
        let root = ConformanceTests.root.path
        let cases = try Conformance.cases(in: root)
        XCTAssertGreaterThanOrEqual(cases.count, 20)
        for (label, make) in variants {
            for directory in cases {
                let name = (directory as NSString).lastPathComponent
                let result = try Conformance.check(case: directory) { _ in
                    StrategyRegistry.Strategy(name: "predicate-index (\(label))", summary: "", make: make)
                }
                XCTAssertGreaterThan(result.events, 0, name)
                XCTAssertEqual(result.disagreements.count, 0, "\(label), case \(name): \(result.disagreements.prefix(3))")
                XCTAssertEqual(result.invalidResults, 0, "\(label), case \(name)")
            }
        }
    }
}
