import Foundation
import Harness
import TriggerKit
import XCTest

/// Replays every `Corpora/conformance/<case>` through every strategy that decides matches, as `bench
/// replay --strategy` does, and diffs the output against `expected.jsonl`.
final class ConformanceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/conformance")

    func testEveryConformanceCaseReplaysToItsExpectedOutput() throws {
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.root.path).sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 10, "conformance cases missing under \(Self.root.path)")
        let strategies = StrategyRegistry.names.filter { $0 != "floor" }  // floor decides nothing
        XCTAssertEqual(strategies.count, 4)
        for name in cases {
            let dir = Self.root.appendingPathComponent(name)
            let expected = try String(contentsOf: dir.appendingPathComponent("expected.jsonl"), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
            for strategy in strategies {
                var output: [String] = []
                let invalid = try ReplaySession.run(
                    corpusPath: dir.appendingPathComponent("corpus.json").path,
                    eventsPath: dir.appendingPathComponent("events.jsonl").path,
                    displaySeconds: 10, makeMatcher: StrategyRegistry.eventMatcher(StrategyRegistry.named(strategy)!),
                    write: { output.append($0) })
                let label = "\(name) with \(strategy)"
                XCTAssertEqual(output.count, expected.count, "\(label): every input line must produce one output line")
                for (i, (got, want)) in zip(output, expected).enumerated() where got != want {
                    XCTFail("\(label) line \(i):\n  got  \(got)\n  want \(want)")
                }
                for (i, line) in output.enumerated() { try checkShape(line, "\(label) line \(i)") }
                let expectedInvalid = expected.filter { $0.contains("\"outcome\":\"invalid\"") }.count
                XCTAssertEqual(invalid, expectedInvalid, "\(label): invalid line count")
            }
        }
    }

    /// Replay's line shape: `matched` on every event line, `trigger` only on `triggered`, `error` only on
    /// `invalid`, nothing but `index`, `outcome` and `displays` on a control line.
    func checkShape(_ line: String, _ where_: String) throws {
        let json = try JSONValue.parse(line)
        guard case .object(let members) = json, case .string(let outcome)? = json["outcome"] else {
            return XCTFail("\(where_): not an object with an outcome: \(line)")
        }
        let keys = Set(members.map(\.key))
        let isEvent = ["no_match", "throttled", "triggered"].contains(outcome)
        XCTAssertEqual(keys.contains("matched"), isEvent, "\(where_): matched on every event line only")
        XCTAssertEqual(keys.contains("trigger"), outcome == "triggered", "\(where_): trigger only on triggered")
        XCTAssertEqual(keys.contains("error"), outcome == "invalid", "\(where_): error only on invalid")
        XCTAssertTrue(keys.isSubset(of: ["index", "outcome", "trigger", "matched", "warning", "error", "displays"]), "\(where_): \(keys)")
    }
}
