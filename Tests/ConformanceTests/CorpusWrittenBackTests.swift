import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// Every conformance case and generated workload, written back as JSON (what a plugin is handed after
/// a delta), reads as the same set: written again it is the same text, and `reference` matches through
/// it as through the file.
final class CorpusWrittenBackTests: XCTestCase {
    /// `set` written as JSON and read back, asserting that writing it again gives the same text and
    /// that it holds the same triggers.
    func writtenBack(_ set: TriggerSet, _ what: String) throws -> TriggerSet {
        let bytes = CorpusEncoder.encode(set)
        let again = try CorpusDecoder.decode(bytes: bytes)
        XCTAssertEqual(CorpusEncoder.encode(again), bytes, what)
        XCTAssertEqual(again.triggers.map(\.id), set.triggers.map(\.id), what)
        return again
    }

    func testEveryConformanceCaseMatchesAlikeThroughItsCorpusWrittenBack() throws {
        let reference = try XCTUnwrap(StrategyRegistry.named("reference"))
        let cases = try Conformance.cases(in: ConformanceTests.root.path)
        XCTAssertGreaterThan(cases.count, 10)
        for directory in cases {
            let result = try Conformance.check(case: directory) { corpus in
                let again = try self.writtenBack(corpus.set, directory)
                return StrategyRegistry.Strategy(name: "written-back", summary: "", make: { _, vocabulary in try reference.make(again, vocabulary) })
            }
            XCTAssertEqual(result.disagreements.map(\.description), [], result.name)
        }
    }

    func testGeneratedWorkloadsWriteBack() throws {
        for name in ["tiny", "default", "braze-typical-200"] {
            var spec = try WorkloadSpec.load(name)
            spec.triggers = min(spec.triggers, 3000)
            _ = try writtenBack(try WorkloadGenerator.corpus(spec), name)
        }
    }
}
