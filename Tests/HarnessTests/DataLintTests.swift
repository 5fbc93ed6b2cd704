import Harness
import TriggerKit
import XCTest

/// `bench lint`'s findings on a log with each footgun, and none on a clean one.
final class DataLintTests: XCTestCase {
    static let corpus = #"""
        {"format":"trigger-corpus/1","triggers":[
         {"id":"t1","conditions":[{"type":"custom_event","event_name":"Purchase_Done","filters":[[{"property":"amount","type":"number","op":"gte","value":5}],[{"property":"plan","type":"string","op":"eq","value":"pro"}]]}]},
         {"id":"t2","conditions":[{"type":"custom_event","event_name":"open","filters":[[{"property":"ghost.level","type":"number","op":"gt","value":1}]]}]}
        ]}
        """#

    func lint(_ lines: [String]) throws -> [DataLint.Finding] {
        let lint = DataLint(try CorpusDecoder.decode(bytes: Array(Self.corpus.utf8)))
        for (k, line) in lines.enumerated() { lint.observe(try EventDecoder.decode(try EventDecoder.parseLine(Array(line.utf8))), line: k + 1) }
        return lint.findings
    }

    /// Past the distinct spellings kept, near misses are still counted: 20,000 spellings of a name
    /// (each letter lower or upper case, ASCII or fullwidth), each sent once, are 20,000 events.
    func testNearMissNamesPastTheSpellingLimitAreCounted() throws {
        let lint = DataLint(try CorpusDecoder.decode(bytes: Array(Self.corpus.utf8)))
        let letters = Array("purchase_done").map { String($0) }
        let count = 2 * DataLint.spellingLimit
        var nearMisses = 0
        for n in 1...count {
            var digits = n
            let name = letters.map { letter -> String in
                guard letter != "_" else { return letter }
                defer { digits /= 4 }
                let cased = digits % 2 == 1 ? letter.uppercased() : letter
                return digits % 4 >= 2 ? String(UnicodeScalar(cased.unicodeScalars.first!.value + 0xFEE0)!) : cased
            }.joined()
            if name != "Purchase_Done" { nearMisses += 1 }  // the trigger's own spelling is one of them
            lint.observe(Event(time: 1, kind: .customEvent(name: name), properties: [:]), line: n)
        }
        let near = try XCTUnwrap(lint.findings.first { $0.what.contains("near one it does (") })
        XCTAssertEqual(near.count, nearMisses)
        XCTAssertGreaterThan(nearMisses, DataLint.spellingLimit)
    }

    /// "nan", "inf" and "1e999" read as Doubles, but JSON cannot send them unquoted: no advice to.
    func testStringsNoJSONNumberSpellsAreNotNumbersSentAsStrings() throws {
        let findings = try lint(["nan", "inf", "-Infinity", "1e999", "0x10", " 7 "].map {
            #"{"time":1767225603,"type":"custom_event","name":"Purchase_Done","properties":{"amount":"\#($0)"}}"#
        })
        XCTAssertEqual(findings.first { $0.what.contains("numbers sent as strings") }?.examples, [#"line 6: "amount": " 7 ""#])
    }

    func testEachFootgunIsFoundWithItsLine() throws {
        let findings = try lint([
            #"{"time":1767225603000,"type":"custom_event","name":"Purchase_Done","properties":{"amount":"6","plan":3}}"#,
            #"{"time":1767225603000000,"type":"custom_event","name":"open"}"#,
            #"{"time":1767225604,"type":"custom_event","name":"ＯＰＥＮ","properties":{"amount":7}}"#,
            #"{"time":1767225605,"type":"custom_event","name":"purchase_done"}"#,
            // Another event's property of the same name is no mismatch: no filter of that event reads it.
            #"{"time":1767225606,"type":"custom_event","name":"page_view","properties":{"amount":"6","plan":3}}"#,
        ])
        func finding(_ words: String) -> DataLint.Finding? { findings.first { $0.what.contains(words) } }
        XCTAssertEqual(finding("milliseconds")?.examples, ["line 1: time 1767225603000"])
        XCTAssertEqual(finding("microseconds")?.count, 1)
        XCTAssertEqual(finding("numbers sent as strings")?.examples, [#"line 1: "amount": "6""#])
        XCTAssertEqual(finding("numbers sent as strings")?.count, 1)
        XCTAssertEqual(finding("string filters of the same event")?.examples, [#"line 1: "plan": 3"#])
        let near = try XCTUnwrap(finding("near one it does ("))
        XCTAssertEqual(near.count, 2)
        XCTAssertTrue(near.examples.contains { $0.contains(#""purchase_done""#) && $0.contains(#""Purchase_Done""#) }, "\(near.examples)")
        XCTAssertTrue(near.examples.contains { $0.contains("ＯＰＥＮ") }, "\(near.examples)")
        XCTAssertEqual(finding("no event of the log holds")?.examples, [#""ghost.level" (1 filter)"#])
    }

    func testWindowsDatesBooleansAndKeyCaseAreFound() throws {
        let corpus = #"""
            {"format":"trigger-corpus/1","triggers":[
             {"id":"w","start_time":1767225600000,"conditions":[{"type":"custom_event","event_name":"e","filters":[
               [{"property":"opted_in","type":"boolean","op":"eq","value":true}],
               [{"property":"signup","type":"date","op":"before","value":1767225600}],
               [{"property":"coupon_code","type":"string","op":"exists"}]]}]}
            ]}
            """#
        let lint = DataLint(try CorpusDecoder.decode(bytes: Array(corpus.utf8)))
        let line = #"{"time":1767225603,"type":"custom_event","name":"e","properties":{"opted_in":"true","signup":{"$date":1767225600000},"Coupon_Code":"X"}}"#
        lint.observe(try EventDecoder.decode(try EventDecoder.parseLine(Array(line.utf8))), line: 1)
        func finding(_ words: String) -> DataLint.Finding? { lint.findings.first { $0.what.contains(words) } }
        XCTAssertEqual(finding("trigger windows")?.examples, ["trigger w: start_time 1767225600000"])
        XCTAssertEqual(finding("booleans sent as strings")?.examples, [#"line 1: "opted_in": "true""#])
        XCTAssertEqual(finding("date properties")?.count, 1)
        XCTAssertEqual(finding("no event of the log holds")?.examples, [#""coupon_code" (1 filter; events hold "Coupon_Code")"#])
    }

    func testACleanLogHasNoFindings() throws {
        XCTAssertTrue(try lint([
            #"{"time":1767225603,"type":"custom_event","name":"Purchase_Done","properties":{"amount":6,"plan":"pro"}}"#,
            #"{"time":1767225603.5,"type":"custom_event","name":"open","properties":{"ghost":{"level":2}}}"#,
            #"{"time":1767225604,"type":"custom_event","name":"unrelated_name"}"#,
        ]).isEmpty)
    }
}
