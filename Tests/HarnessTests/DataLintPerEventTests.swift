import Harness
import TriggerKit
import XCTest

/// `bench lint` read per event name: a mistake frequent within one name though rare in the log, a
/// property spelled near the one its filters read, a name one letter off, and the report's forms.
final class DataLintPerEventTests: XCTestCase {
    static let corpus = #"""
        {"format":"trigger-corpus/1","triggers":[
         {"id":"lvl","conditions":[{"type":"custom_event","event_name":"level_completed","filters":[[{"property":"level","type":"number","op":"gte","value":10}]]}]},
         {"id":"pw","conditions":[{"type":"custom_event","event_name":"view_paywall","filters":[[{"property":"sessions_count","type":"number","op":"gt","value":3}]]}]},
         {"id":"dm","conditions":[{"type":"custom_event","event_name":"settings_changed","filters":[[{"property":"dark_mode","type":"boolean","op":"eq","value":false}]]}]},
         {"id":"st","conditions":[{"type":"custom_event","event_name":"search","filters":[[{"property":"price","type":"string","op":"eq","value":"9"}]]}]},
         {"id":"n3","conditions":[{"type":"custom_event","event_name":"level_3","filters":[]}]},
         {"id":"buy","conditions":[{"type":"custom_event","event_name":"purchase_done","filters":[]}]}
        ]}
        """#

    /// 1,000 lines: 300 `level_completed` (one in six spelled `Level`), 200 `view_paywall` (one in
    /// five `sesions_count`), 20 `settings_changed` (one sends `"false"`), 5 `search` whose
    /// price always arrives as a number (the filter's type is what looks wrong), 10 `purchse_done`,
    /// 10 `level_4` (a numbered family, no mistake) and the rest `screen_view`.
    static func lines() -> [String] {
        (0..<1_000).map { i in
            let t = 1_767_225_600 + i
            func line(_ name: String, _ properties: String) -> String { #"{"time":\#(t),"type":"custom_event","name":"\#(name)","properties":{\#(properties)}}"# }
            switch i % 100 {
            case 0..<30: return line("level_completed", i % 6 == 0 ? #""Level":12"# : #""level":12"#)
            case 30..<50: return line("view_paywall", i % 5 == 0 ? #""sesions_count":4"# : #""sessions_count":4"#)
            case 50, 51: return line("settings_changed", i % 1_000 == 50 ? #""dark_mode":"false""# : #""dark_mode":false"#)
            case 52 where i % 200 == 52: return line("search", #""price":9"#)
            case 54: return line("purchse_done", "")
            case 55: return line("level_4", "")
            default: return line("screen_view", #""screen":"home""#)
            }
        }
    }

    func lint() throws -> DataLint {
        let lint = DataLint(try CorpusDecoder.decode(bytes: Array(Self.corpus.utf8)))
        for (k, line) in Self.lines().enumerated() { lint.observe(try EventDecoder.decode(try EventDecoder.parseLine(Array(line.utf8))), line: k + 1) }
        return lint
    }

    func testMistakesAreRatedPerEventName() throws {
        let findings = try lint().findings
        func finding(_ code: String) throws -> DataLint.Finding { try XCTUnwrap(findings.first { $0.code == code }, "\(findings.map(\.code))") }
        let near = try finding("near_properties")
        XCTAssertEqual(near.rates.map(\.property), ["sesions_count", "Level"])
        XCTAssertEqual(near.rates.map(\.meant), ["sessions_count", "level"])
        XCTAssertEqual(near.rates.map(\.count), [40, 50])
        XCTAssertEqual(near.rates.map(\.of), [200, 300])
        XCTAssertTrue(near.examples[0].contains(#"did you mean "sessions_count"?"#), near.examples[0])
        let booleans = try finding("booleans_as_strings")
        XCTAssertEqual(booleans.rates.map { [$0.event, $0.property] }, [["settings_changed", "dark_mode"]])
        XCTAssertEqual(booleans.rates.map { [$0.count, $0.of, $0.fitting] }, [[1, 20, 19]], "19 booleans after the first string")
        let names = try finding("near_names")
        XCTAssertEqual(names.names.map(\.name), ["purchse_done"], "level_4 beside level_3 is a numbered family")
        XCTAssertEqual(names.names.first?.meant, "purchase_done")
        XCTAssertEqual(try finding("numbers_for_strings").rates.first?.fitting, 0)
    }

    /// The one line `bench run` prints says a habit of one event, though under 1 % of the log, and
    /// leaves out a property that never arrives in its filter's type.
    func testTheOneLineWarningSaysWhatIsFrequentWithinOneName() throws {
        let summary = try XCTUnwrap(try lint().summary(corpusPath: "c.json", eventLogPath: "e.jsonl"))
        XCTAssertTrue(summary.contains(#"(20 % of "view_paywall"'s "sesions_count")"#), summary)
        XCTAssertFalse(summary.contains("numbers sent to properties"), summary)
        XCTAssertFalse(summary.contains("booleans"), "one of 20 is under 5 %: \(summary)")
    }

    func testOneLetterAwayAndFoldedSpellingsAreSuggested() {
        let spellings = NearSpellings(["sessions_count", "level", "Purchase_Done", "ev-686", "id"])
        func near(_ word: String) -> String? { spellings.suggestion(for: word) }
        XCTAssertEqual(near("sesions_count"), "sessions_count")  // dropped
        XCTAssertEqual(near("sessionss_count"), "sessions_count")  // added
        XCTAssertEqual(near("sessoins_count"), "sessions_count")  // swapped
        XCTAssertEqual(near("sessions_cuont"), "sessions_count")
        XCTAssertEqual(near("sessions-count"), "sessions_count")  // changed
        XCTAssertEqual(near("LEVEL"), "level")
        XCTAssertEqual(near("ｐｕｒｃｈａｓｅ_done"), "Purchase_Done")
        XCTAssertNil(near("ev-68"), "digits only")
        XCTAssertNil(near("ix"), "too short for a distance")
        XCTAssertNil(near("sessions_cnt"), "two letters")
    }

    func testTheJSONReportListsEveryRateAndInvalidLine() throws {
        let corpus = try CorpusDecoder.decode(bytes: Array(Self.corpus.utf8))
        let lint = DataLint(corpus)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let bad = #"{"time":"soon","type":"session_start"}"#
        try (Self.lines() + [bad]).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let log = try LoadedEventLog.load(path: file.path, vocabulary: Vocabulary(corpus), categories: corpus.actionCategories, lineLimit: nil,
                                          strict: false, lint: lint, errorsKept: LoadedEventLog.errorsListed)
        let report = LintReport(corpus: "c.json", eventLog: "e.jsonl", triggers: 6, log: log, findings: lint.findings)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        XCTAssertEqual(json["format"] as? String, "trigger-lint/1")
        let invalid = try XCTUnwrap(json["invalid_lines"] as? [String: Any])
        XCTAssertEqual(invalid["count"] as? Int, 1)
        XCTAssertEqual((invalid["listed"] as? [[String: Any]])?.first?["line"] as? Int, 1_001)
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        let near = try XCTUnwrap(findings.first { $0["code"] as? String == "near_properties" })
        let rates = try XCTUnwrap(near["by_event"] as? [[String: Any]])
        XCTAssertEqual(rates.map { $0["did_you_mean"] as? String }, ["sessions_count", "level"])
        XCTAssertEqual(rates.first?["event"] as? String, "view_paywall")
        XCTAssertTrue(report.text.contains("    line 1001: time: "), report.text)
    }
}
