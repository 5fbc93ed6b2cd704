import TriggerKit
import XCTest

final class JSONParsingTests: XCTestCase {
    func testIntegersStayIntegersAndFractionsBecomeDoubles() throws {
        XCTAssertEqual(try JSONValue.parse("[3, 3.0, -0, 9223372036854775807, 9223372036854775808]"),
                       .array([.int(3), .double(3), .int(0), .int(.max), .double(9_223_372_036_854_775_808)]))
    }

    /// Serialized text escapes what JSON requires (quote, backslash, every control character, in
    /// lowercase \u00xx or the short forms) and keeps everything else as UTF-8, and it reads back equal.
    func testSerializedStringsEscapeControlCharactersAndReadBack() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let text = "a\"b\\c/é€𝄞" + controls
        let value = JSONValue.object([("k\u{1}", .array([.string(text), .int(-3), .double(0.5), .bool(true), .null]))])
        let serialized = value.serialized
        XCTAssertTrue(serialized.hasPrefix(#"{"k\u0001":["a\"b\\c/é€𝄞\u0000\u0001"#), serialized)
        XCTAssertTrue(serialized.contains(#"\u0008\t\n\u000b\u000c\r\u000e"#), serialized)
        XCTAssertTrue(serialized.hasSuffix(#"\u001f",-3,0.5,true,null]}"#), serialized)
        XCTAssertEqual(try JSONValue.parse(serialized), value)
        XCTAssertEqual(value.serializedBytes(keepingDoubles: false), Array(serialized.utf8))
    }

    func testDeepNestingIsAnErrorNotAStackOverflow() {
        let hostile = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(hostile)) { error in
            XCTAssertTrue("\(error)".contains("nesting deeper than"), "\(error)")
        }
    }

    func testNumbersBeyondDoubleRangeAreRefused() {
        XCTAssertThrowsError(try JSONValue.parse("1e400")) { XCTAssertTrue("\($0)".contains("out of range")) }
        XCTAssertThrowsError(try JSONValue.parse("-1" + String(repeating: "0", count: 400)))
    }

    func testNaNAndInfinityAreNotJSON() {
        for text in ["NaN", "Infinity", "-Infinity", "[nan]"] {
            XCTAssertThrowsError(try JSONValue.parse(text), text)
        }
    }

    func testDuplicateKeysAreRefusedWithTheirLocation() {
        XCTAssertThrowsError(try JSONValue.parse("{\"a\":1,\n \"a\":2}")) { error in
            let e = error as! JSONSyntaxError
            XCTAssertEqual(e.line, 2)
            XCTAssertTrue(e.reason.contains("duplicate member name \"a\""))
        }
    }

    /// Canonically equivalent spellings are one name in an object of any size (they were compared by
    /// bytes under 16 members and as strings from 16 on), and an ASCII name can be one of them.
    func testCanonicallyEquivalentNamesAreDuplicatesWhateverTheObjectsSize() {
        for (a, b) in [("caf\u{E9}", "cafe\u{301}"), ("K", "\u{212A}"), ("caf\\u00e9", "cafe\\u0301")] {
            for others in [0, 3, 20] {
                let filler = (0..<others).map { "\"m\($0)\":0," }.joined()
                let text = "{" + filler + "\"\(a)\":1,\"\(b)\":2}"
                XCTAssertThrowsError(try JSONValue.parse(text), "\(a) and \(b) beside \(others) members") { error in
                    XCTAssertTrue((error as? JSONSyntaxError)?.reason.contains("duplicate member name") == true, "\(error)")
                }
            }
        }
        XCTAssertNoThrow(try JSONValue.parse(#"{"cafe":1,"caf\u00e9":2}"#), "different names")
    }

    func testEscapesAndSurrogatePairsDecode() throws {
        XCTAssertEqual(try JSONValue.parse(#""a\"\\\/\n\u00e9\ud83d\ude00""#), .string("a\"\\/\né😀"))
        XCTAssertThrowsError(try JSONValue.parse(#""\ud83d""#))
    }

    func testInvalidUTF8AndControlCharactersAreRefused() {
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xFF, 0x22]))
        XCTAssertThrowsError(try JSONValue.parse("\"a\u{01}b\""))
    }

    func testTrailingGarbageAndMalformedNumbersAreRefused() {
        for text in ["{} x", "01", "1.", ".5", "-", "1e", "[1,]", "{\"a\"}", "tru"] {
            XCTAssertThrowsError(try JSONValue.parse(text), text)
        }
    }

    func testSerializedOutputRoundTrips() throws {
        let text = #"{"b":[1,2.5,"x\n",true,null],"a":{"c":-3}}"#
        XCTAssertEqual(try JSONValue.parse(text).serialized, text)
    }
}
