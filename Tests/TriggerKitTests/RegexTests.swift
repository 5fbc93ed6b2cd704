import Foundation
import TriggerKit
import XCTest

/// `regex` filters: RE2 syntax, a case-insensitive search over UTF-8, decided in linear time.
final class RegexTests: XCTestCase {
    func testCatastrophicBacktrackingPatternAnswersInLinearTime() throws {
        // A backtracking engine takes tens of seconds on 60 `a`s and never finishes on 250.
        let re = try CompiledRegex("(a|a)+$")
        let texts = [String(repeating: "a", count: 60) + "!", String(repeating: "a", count: 250) + "!",
                     String(repeating: "a", count: 255)]
        let start = DispatchTime.now().uptimeNanoseconds
        var found = 0
        for _ in 0..<100 {
            for t in texts where re.search(t) { found += 1 }
        }
        let perSearch = Double(DispatchTime.now().uptimeNanoseconds - start) / 300 / 1e6
        XCTAssertEqual(found, 100, "only the string ending in `a` matches")
        XCTAssertLessThan(perSearch, 10, "a search took \(perSearch) ms on average; it must not backtrack")
    }

    /// Memory accounting counts what counted repetition expands to, not only the pattern's bytes:
    /// `q(abc){300}` holds about 64 KB once compiled, 14 bytes of pattern.
    func testTheMemoryBoundGrowsWithTheProgramNotOnlyThePattern() throws {
        let plain = try CompiledRegex("q(abc)"), repeated = try CompiledRegex("q(abc){300}")
        XCTAssertGreaterThan(repeated.bytesBound - plain.bytesBound, 64 << 10)
    }

    func testSearchIsCaseInsensitiveAndUnanchoredOverUTF8() throws {
        XCTAssertTrue(try CompiledRegex("gold").search("xxGOLDyy"))
        XCTAssertFalse(try CompiledRegex("^gold").search("xxgold"))
        XCTAssertTrue(try CompiledRegex("^gold").search("Gold member"))
        XCTAssertTrue(try CompiledRegex("école$").search("grande ÉCOLE"))
        XCTAssertTrue(try CompiledRegex("^.$").search("é"), "`.` is one code point, not one byte")
        XCTAssertTrue(try CompiledRegex("").search(""))
        XCTAssertTrue(try CompiledRegex(#"\d{3}-\w+"#).search("sku 123-abc"))
    }

    func testPatternsThatNeedBacktrackingAreRefusedWithTheReason() {
        for (pattern, reason) in [(#"(a)\1"#, #"invalid escape sequence: \1"#), ("a(?=b)", "invalid perl operator: (?="),
                                  ("(?<!x)y", "invalid perl operator: (?<"), ("(unclosed", "missing )")] {
            XCTAssertThrowsError(try CompiledRegex(pattern), pattern) { error in
                XCTAssertEqual((error as? CompiledRegex.InvalidPattern)?.reason.hasPrefix(reason), true, "\(pattern): \(error)")
            }
        }
    }

    func testCorpusWithALookaroundIsRefusedNamingTriggerAndPath() {
        let corpus = #"{"format":"trigger-corpus/1","triggers":[{"id":"vip","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"regex","value":"a(?!b)"}]]}]}]}"#
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: Array(corpus.utf8))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("triggers[0].conditions[0].filters[0][0].value: regular expression"), text)
            XCTAssertTrue(text.contains("not valid RE2 syntax: invalid perl operator: (?!"), text)
            XCTAssertTrue(text.hasSuffix(#"(trigger "vip")"#), text)
        }
    }

    /// Valid syntax past RE2's program budget is named as such, with the fix, not as a syntax error.
    func testAPatternPastRE2sProgramBudgetIsNamedAsTooLarge() {
        let pattern = String(repeating: #"\\pL{1000}"#, count: 12)
        let corpus = #"{"format":"trigger-corpus/1","triggers":[{"id":"big","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"s","type":"string","op":"regex","value":"\#(pattern)"}]]}]}]}"#
        XCTAssertThrowsError(try CorpusDecoder.decode(bytes: Array(corpus.utf8))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("compiles to a program larger than RE2 allows (pattern too large"), text)
            XCTAssertFalse(text.contains("not valid RE2 syntax"), text)
        }
    }
}
