import TriggerKit
import XCTest

/// Every corpus limit of docs/semantics.md, at the limit (accepted) and one past it (refused with the
/// JSON path), in each place it applies: corpora and deltas, and the event each id must be able to match.
final class CorpusLimitTests: XCTestCase {
    func corpus(_ triggers: String) -> [UInt8] { Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers)]}"#.utf8) }

    func accepts(_ trigger: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try CorpusDecoder.decode(bytes: corpus(trigger)), file: file, line: line)
        XCTAssertNoThrow(try DeltaDecoder.decode(bytes: Array(#"{"format":"trigger-delta/1","add":[\#(trigger)]}"#.utf8)), file: file, line: line)
    }

    func refuses(_ trigger: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: corpus(trigger)), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(expected), "\(error)", file: file, line: line)
        }
        XCTAssertThrowsError(try DeltaDecoder.decode(bytes: Array(#"{"format":"trigger-delta/1","add":[\#(trigger)]}"#.utf8)), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(expected.replacingOccurrences(of: "triggers[0]", with: "add[0]")), "\(error)", file: file, line: line)
        }
    }

    func name(_ bytes: Int) -> String { String(repeating: "n", count: bytes) }

    func testNamesAndIDsAreAtMost255BytesWhereverTheyAppear() {
        let places: [(condition: (String) -> String, path: String, noun: String)] = [
            ({ #"{"type":"custom_event","event_name":"\#($0)"}"# }, "event_name", "event name"),
            ({ #"{"type":"purchase","product_id":"\#($0)"}"# }, "product_id", "product id"),
            ({ #"{"type":"push_click","campaign_id":"\#($0)"}"# }, "campaign_id", "campaign id"),
            ({ #"{"type":"push_click","campaign_id":null,"action_id":"\#($0)"}"# }, "action_id", "action id"),
        ]
        for place in places {
            accepts(#"{"id":"t","conditions":[\#(place.condition(name(255)))]}"#)
            refuses(#"{"id":"t","conditions":[\#(place.condition(name(256)))]}"#,
                    "triggers[0].conditions[0].\(place.path): \(place.noun) is 256 UTF-8 bytes; at most 255 are allowed")
            refuses(#"{"id":"t","conditions":[\#(place.condition(""))]}"#, "\(place.noun) must not be empty")
        }
    }

    /// The bound counts the bytes as written: a decomposed spelling over 255 bytes is refused though its
    /// composed form is shorter, and a spelling of 255 bytes is accepted though its canonical form is
    /// longer (U+0958 has no composed form: it decomposes to two three-byte scalars).
    func testTheBoundCountsBytesAsWrittenNotNormalized() throws {
        let decomposed = String(repeating: "e\u{301}", count: 86)  // 258 bytes written, 172 composed
        refuses(#"{"id":"t","conditions":[{"type":"purchase","product_id":"\#(decomposed)"}]}"#, "product id is 258 UTF-8 bytes")
        let qa = String(repeating: "\u{958}", count: 85)  // 255 bytes written, 510 in canonical form
        XCTAssertEqual(qa.utf8.count, 255)
        let set = try CorpusDecoder.decode(bytes: corpus(#"{"id":"t","conditions":[{"type":"purchase","product_id":"\#(qa)"}]}"#))
        XCTAssertEqual(set.triggers.count, 1)
        // An event written the same way is valid, so the two can meet.
        XCTAssertNoThrow(try EventDecoder.decode(line: Array(#"{"time":1,"type":"purchase","product_id":"\#(qa)"}"#.utf8)))
        XCTAssertThrowsError(try EventDecoder.decode(line: Array(#"{"time":1,"type":"purchase","product_id":"\#(decomposed)"}"#.utf8)))
    }

    func testConditionFilterAndPatternCounts() {
        let ok = #"{"type":"custom_event","event_name":"e"}"#
        accepts(#"{"id":"t","conditions":[\#(Array(repeating: ok, count: 64).joined(separator: ","))]}"#)
        refuses(#"{"id":"t","conditions":[\#(Array(repeating: ok, count: 65).joined(separator: ","))]}"#, "65 conditions; at most 64 are allowed")
        let filter = #"{"property":"p","type":"number","op":"exists"}"#
        func clause(_ n: Int) -> String {
            #"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[\#(Array(repeating: filter, count: n).joined(separator: ","))]]}]}"#
        }
        accepts(clause(64))
        refuses(clause(65), "65 filters in one clause; at most 64 are allowed")
        func pattern(_ n: Int) -> String {
            #"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"string","op":"regex","value":"\#(String(repeating: "a", count: n))"}]]}]}"#
        }
        accepts(pattern(4096))
        refuses(pattern(4097), "regular expression is 4097 bytes; at most 4096 are allowed")
    }

    func testStringConstantsAreAtMost255BytesAsEventStringsAre() {
        for op in ["eq", "ne"] {
            accepts(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"\#(op)","value":"\#(name(255))"}]]}]}"#)
            refuses(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"\#(op)","value":"\#(name(256))"}]]}]}"#,
                    "filters[0][0].value: string constant is 256 UTF-8 bytes; at most 255 are allowed")
        }
        refuses(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"in","value":["a","\#(name(256))"]}]]}]}"#,
                "filters[0][0].value[1]: string constant is 256 UTF-8 bytes")
    }

    /// Found by an outside reading of the docs: a message's unknown key was accepted, and every refused
    /// pattern was said to use backreferences or lookaround.
    func testMessageKeysAreCheckedAndTheRegexHintOnlyWhereItApplies() {
        refuses(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e"}],"message":{"type":"modal","foo":1}}"#, "unknown key")
        accepts(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e"}],"message":{}}"#)
        func pattern(_ p: String) -> String {
            #"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"regex","value":"\#(p)"}]]}]}"#
        }
        refuses(pattern("a(?=b)"), "backreferences and lookaround are not supported")
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: corpus(#"{"id":"t","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"regex","value":"(?x)a b"}]]}]}"#))) { error in
            XCTAssertTrue("\(error)".contains("is not valid RE2 syntax: invalid perl operator: (?x"), "\(error)")
            XCTAssertFalse("\(error)".contains("lookaround"), "\(error)")
        }
    }
}
