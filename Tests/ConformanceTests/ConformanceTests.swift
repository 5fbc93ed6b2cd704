import Foundation
import Harness
import TriggerKit
import XCTest

/// Replays every `Corpora/conformance/<case>` and diffs the output against `expected.jsonl`.
final class ConformanceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/conformance")

    func testEveryConformanceCaseReplaysToItsExpectedOutput() throws {
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 10, "conformance cases missing under \(Self.root.path)")
        for name in cases {
            let dir = Self.root.appendingPathComponent(name)
            var output: [String] = []
            let invalid = try ReplaySession.run(
                corpusPath: dir.appendingPathComponent("corpus.json").path,
                eventsPath: dir.appendingPathComponent("events.jsonl").path,
                displaySeconds: 10, write: { output.append($0) })
            let expected = try String(contentsOf: dir.appendingPathComponent("expected.jsonl"), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
            XCTAssertEqual(output.count, expected.count, "\(name): every input line must produce one output line")
            for (i, (got, want)) in zip(output, expected).enumerated() where got != want {
                XCTFail("\(name) line \(i):\n  got  \(got)\n  want \(want)")
            }
            let expectedInvalid = expected.filter { $0.contains("\"outcome\":\"invalid\"") }.count
            XCTAssertEqual(invalid, expectedInvalid, "\(name): invalid line count")
        }
    }
}
