import Foundation
import Harness
import TriggerKit
import XCTest

/// `bench explain` decides exactly what `bench replay` decides: for every event line k of every
/// conformance case, explaining line k after lines 0..<k gives replay's outcome and winner for line k.
final class ExplainAgreesWithReplayTests: XCTestCase {
    func outcomeAndWinner(ofReplayLine line: String) throws -> (String, String?)? {
        let json = try JSONValue.parse(line)
        guard case .string(let outcome)? = json["outcome"], ["no_match", "throttled", "triggered"].contains(outcome)
        else { return nil }
        if case .string(let winner)? = json["trigger"] { return (outcome, winner) }
        return (outcome, nil)
    }

    func testExplainAfterEachPrefixMatchesReplayOnEveryConformanceCase() throws {
        let root = ConformanceTests.root
        let history = NSTemporaryDirectory() + "explain-history-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: history) }
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let dir = root.appendingPathComponent(name)
            let corpus = dir.appendingPathComponent("corpus.json").path
            let lines = try String(contentsOf: dir.appendingPathComponent("events.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let expected = try String(contentsOf: dir.appendingPathComponent("expected.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            for k in lines.indices {
                guard let (outcome, winner) = try outcomeAndWinner(ofReplayLine: expected[k]) else { continue }
                try lines[..<k].map { $0 + "\n" }.joined().write(toFile: history, atomically: false, encoding: .utf8)
                for strategy in ["reference", "compiled"] {
                    let run = try Explain.run(corpusPath: corpus, eventText: lines[k], historyPath: history, displaySeconds: 10,
                                              makeMatcher: StrategyRegistry.eventMatcher(StrategyRegistry.named(strategy)!))
                    let report = run.report.split(separator: "\n").map(String.init)
                    let delivery = "delivery: \(outcome)" + (winner.map { " \"\($0)\"" } ?? "")
                    XCTAssertTrue(report.contains(delivery), "\(name) line \(k) (\(strategy)): expected \(delivery) in\n\(run.report)")
                    XCTAssertEqual(report.last, "replay prints: \(expected[k])", "\(name) line \(k) (\(strategy))")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 99, "event lines checked (the conformance cases hold 99)")
    }

    func testDismissAndTheIntervalAfterAHistory() throws {
        // History x@100, dismiss@105, y@130: at 140 the interval (30 s since y's display) throttles x.
        let dir = NSTemporaryDirectory() + "explain-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let corpus = #"{"format":"trigger-corpus/1","triggers":[{"id":"tx","re_eligibility":0,"conditions":[{"type":"custom_event","event_name":"x"}]},{"id":"ty","re_eligibility":0,"conditions":[{"type":"custom_event","event_name":"y"}]}]}"#
        try corpus.write(toFile: dir + "/c.json", atomically: false, encoding: .utf8)
        try """
            {"time":100,"type":"custom_event","name":"x"}
            {"time":105,"type":"dismiss"}
            {"time":130,"type":"custom_event","name":"y"}

            """.write(toFile: dir + "/h.jsonl", atomically: false, encoding: .utf8)
        let explain = { (event: String) in
            try Explain.run(corpusPath: dir + "/c.json", eventText: event, historyPath: dir + "/h.jsonl", displaySeconds: 10,
                            makeMatcher: { ReferenceMatcher($0).match })
        }
        let run = try explain(#"{"time":140,"type":"custom_event","name":"x"}"#)
        XCTAssertTrue(run.report.contains("\ndelivery: throttled\n"), run.report)
        XCTAssertTrue(run.report.contains("interval clock: last display at 130, 10 s ago"), run.report)
        XCTAssertTrue(run.report.contains("showing: nothing"), run.report)
        XCTAssertThrowsError(try explain(#"{"time":120,"type":"custom_event","name":"x"}"#)) { error in
            XCTAssertTrue("\(error)".hasSuffix("h.jsonl: line 3: time 130 is after the explained event's time 120; the history must end before the event"), "\(error)")
        }
    }
}
