import TriggerKit
import XCTest

final class CorpusDecoderTests: XCTestCase {
    func corpus(_ triggers: String, settings: String = "") -> [UInt8] {
        Array(#"{"format":"trigger-corpus/1",\#(settings)"triggers":[\#(triggers)]}"#.utf8)
    }

    func refusal(_ triggers: String, settings: String = "") -> String {
        do {
            _ = try CorpusDecoder.decode(bytes: corpus(triggers, settings: settings))
            XCTFail("corpus was accepted: \(triggers)")
            return ""
        } catch {
            return "\(error)"
        }
    }

    let ok = #"{"type":"custom_event","event_name":"e"}"#

    func testUnknownOperatorNamesPathTypeAndTrigger() {
        let error = refusal(#"{"id":"a","conditions":[\#(ok)]},{"id":"cart","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"number","op":"gt","value":1}],[{"property":"p","type":"number","op":"gtt","value":1}]]}]}"#)
        XCTAssertTrue(error.hasPrefix(#"triggers[1].conditions[0].filters[1][0].op: unknown operator "gtt" for type number"#), error)
        XCTAssertTrue(error.hasSuffix(#"(trigger "cart")"#), error)
    }

    func testOperatorOfAnotherTypeIsRefused() {
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"boolean","op":"gt","value":1}]]}]}"#)
            .contains(#"unknown operator "gt" for type boolean"#))
    }

    func testLoadingReportsBytesDecodedInOrderUpToTheFile() throws {
        let triggers = (0..<3_000).map { #"{"id":"t\#($0)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"number","op":"gt","value":\#($0)}]]}]}"# }
        let text = #"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reports: [(Int, Int)] = []
        let set = try CorpusDecoder.load(path: path) { reports.append(($0, $1)) }
        XCTAssertEqual(set.triggers.count, 3_000)
        // One report per 1,024 triggers, each at the end of a trigger, growing, of the whole file's size.
        XCTAssertEqual(reports.count, 2)
        XCTAssertTrue(reports.allSatisfy { $0.1 == text.utf8.count })
        XCTAssertEqual(reports.map(\.0), reports.map(\.0).sorted())
        XCTAssertTrue(reports.allSatisfy { Array(text.utf8)[$0.0 - 1] == UInt8(ascii: "}") })
        XCTAssertGreaterThan(reports[1].0, text.utf8.count / 2)
    }

    func testDuplicateTriggerIDIsRefused() {
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[\#(ok)]},{"id":"a","conditions":[\#(ok)]}"#)
            .contains("triggers[1].id: duplicate trigger id, already used by triggers[0]"))
    }

    func testFiltersOnSessionStartOrPushClickAreRefused() {
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"session_start","filters":[]}]}"#)
            .contains("triggers[0].conditions[0].filters: filters are allowed on custom_event and purchase conditions only"))
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"push_click","campaign_id":null,"filters":[]}]}"#)
            .contains("not on push_click"))
    }

    func testEmptyOrMissingIDIsRefused() {
        XCTAssertTrue(refusal(#"{"id":"","conditions":[\#(ok)]}"#).contains("triggers[0].id: trigger id must be a non-empty string"))
        XCTAssertTrue(refusal(#"{"conditions":[\#(ok)]}"#).contains("triggers[0]: missing required key \"id\""))
    }

    func testInvalidAndOversizedRegexAreRefusedAtLoad() {
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"string","op":"regex","value":"(unclosed"}]]}]}"#)
            .contains("filters[0][0].value: regular expression \"(unclosed\" is not valid RE2 syntax: missing ): (unclosed"))
        let long = String(repeating: "a", count: 4097)
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"string","op":"regex","value":"\#(long)"}]]}]}"#)
            .contains("at most 4096 are allowed"))
    }

    func testLimitsOnConditionsAndClauseWidthAreEnforced() {
        let conditions = Array(repeating: ok, count: 65).joined(separator: ",")
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[\#(conditions)]}"#).contains("65 conditions; at most 64"))
        let filters = Array(repeating: #"{"property":"p","type":"number","op":"exists"}"#, count: 65).joined(separator: ",")
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[\#(filters)]]}]}"#)
            .contains("65 filters in one clause"))
    }

    func testWrongFormatAndUnknownKeysAreRefused() {
        do {
            _ = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/2","triggers":[]}"#.utf8))
            XCTFail()
        } catch { XCTAssertTrue("\(error)".hasPrefix("format: unsupported format")) }
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filter":[]}]}"#)
            .contains(#"unknown key "filter""#))
        XCTAssertTrue(refusal(ok, settings: #""settings":{"minimum_trigger_interval":-1},"#)
            .contains("settings.minimum_trigger_interval"))
    }

    func testValueTypesAreCheckedPerOperator() {
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"number","op":"in","value":[1,"2"]}]]}]}"#)
            .contains("value[1]: expected a number, found string"))
        XCTAssertTrue(refusal(#"{"id":"a","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"date","op":"before","value":"yesterday"}]]}]}"#)
            .contains("not a strict ISO-8601 timestamp"))
        XCTAssertTrue(refusal(#"{"id":"a","re_eligibility":-2,"conditions":[\#(ok)]}"#).contains("re_eligibility must be -1"))
        XCTAssertTrue(refusal(#"{"id":"a","start_time":10,"end_time":5,"conditions":[\#(ok)]}"#).contains("is before start_time"))
    }

    func testSyntaxErrorsNameLineAndColumn() {
        do {
            _ = try CorpusDecoder.decode(bytes: Array("{\"format\":\n  tru}".utf8))
            XCTFail()
        } catch { XCTAssertTrue("\(error)".hasPrefix("line 2, column 3: invalid JSON"), "\(error)") }
    }

    func testValidCorpusKeepsDefaultsAndMessageExtras() throws {
        let set = try CorpusDecoder.decode(bytes: corpus(
            #"{"id":"a","conditions":[\#(ok)],"message":{"type":"slideup","orientation":"portrait","assets":["https://x/y.png"],"extras":{"k":"v"}}}"#))
        let t = set.triggers[0]
        XCTAssertEqual(set.minimumTriggerInterval, 30)
        XCTAssertEqual(t.reEligibility, -1)
        XCTAssertEqual(t.effectiveTimeout, 30)
        XCTAssertEqual(t.message.extras["k"], "v")
        XCTAssertEqual(t.message.orientation, .portrait)
    }

    func testFilesOverTheSizeLimitAreRefusedBeforeReading() throws {
        let path = NSTemporaryDirectory() + "/big-corpus-\(getpid()).json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x20, count: 2048)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try BoundedFile.read(path, limit: 1024)) { error in
            XCTAssertTrue("\(error)".contains("file is 2048 bytes; the limit is 1024 bytes"))
        }
        XCTAssertThrowsError(try CorpusDecoder.load(path: "/nonexistent/corpus.json")) {
            XCTAssertEqual("\($0)", "/nonexistent/corpus.json: no such file; check the path")
        }
    }
}

import Foundation
