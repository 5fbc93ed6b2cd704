import TriggerKit
import XCTest

/// `predicate-index` files each crowded condition under its most selective access, whatever the
/// order of its clauses, and finds regexes through their required literals.
final class AccessSelectivityTests: XCTestCase {
    func literals(_ pattern: String) -> (prefix: String?, factors: [String]) {
        let l = RegexLiterals(pattern: pattern)
        return (l.prefix.map { String(decoding: $0, as: UTF8.self) }, l.factors.map { String(decoding: $0, as: UTF8.self) })
    }

    func testRequiredLiteralsOfPatterns() {
        let cases: [(String, String?, [String])] = [
            ("^/api/v1/R5/", "/api/v1/r5/", ["/api/v1/r5/"]),
            ("abc", nil, ["abc"]),
            ("ab.*CD", nil, ["ab", "cd"]),
            ("^ab$", "ab", ["ab"]),
            ("abc?d", nil, ["ab", "d"]),       // c may be absent
            ("abc*d", nil, ["ab", "d"]),
            ("abc+d", nil, ["abc", "d"]),      // c occurs, but d need not follow the first c
            ("abc{0,2}d", nil, ["ab", "d"]),
            ("ab*?c", nil, ["a", "c"]),
            ("a\\.b", nil, ["a.b"]),
            ("a[xy]b", nil, ["a", "b"]),
            ("a[]x]b", nil, ["a", "b"]),
            ("a\\db", nil, ["a", "b"]),
            ("^a*b", nil, ["b"]),              // the anchored run lost its only letter
            ("xé y", nil, ["x", " y"]),        // non-ASCII ends a run
            ("e\u{301}x", nil, ["x"]),         // NFC makes é: no 'e' is required
            ("(a|b)c", nil, []),
            ("a|b", nil, []),
            ("\\x41b", nil, []),
            ("\\Qa.b\\E", nil, []),
            ("[[:alpha:]]x", nil, []),
            ("", nil, []),
        ]
        for (pattern, prefix, factors) in cases {
            let got = literals(pattern)
            XCTAssertEqual(got.prefix, prefix, pattern)
            XCTAssertEqual(got.factors, factors, pattern)
        }
    }

    func testFoldLowercasesOnlyASCIICapitals() {
        let text = Array("AZaz@[`{\u{C0}Kk".utf8)
        let folded = text.withUnsafeBufferPointer { ASCIIFold.word($0.baseAddress!, at: 0, count: 8) }
        XCTAssertEqual(folded, text.withUnsafeBufferPointer { p in (0..<8).reduce(UInt64(0)) { $0 | UInt64(ASCIIFold.lower(p[$1])) << (8 * UInt64($1)) } })
        XCTAssertEqual(String(decoding: withUnsafeBytes(of: folded.littleEndian) { Array($0) }, as: UTF8.self), "azaz@[`{")
        XCTAssertTrue(Array("x\u{17F}".utf8).withUnsafeBufferPointer { ASCIIFold.foldsOutsideASCII($0.baseAddress!, count: $0.count) })
        XCTAssertTrue(Array("\u{212A}".utf8).withUnsafeBufferPointer { ASCIIFold.foldsOutsideASCII($0.baseAddress!, count: $0.count) })
        XCTAssertFalse(Array("é\u{C5}".utf8).withUnsafeBufferPointer { ASCIIFold.foldsOutsideASCII($0.baseAddress!, count: $0.count) })
    }

    /// Rules sharing `env = prod` and differing on `number` are filed under `number`; regex rules
    /// under a literal key; each event's candidates are its matches, and the answers are reference's.
    func testSelectiveEqualityAndLiteralsPruneToTheMatches() throws {
        func f(_ key: String, _ type: String, _ op: String, _ value: String) -> String {
            #"{"property":"\#(key)","type":"\#(type)","op":"\#(op)","value":\#(value)}"#
        }
        var triggers: [String] = []
        for k in 0..<300 {
            let clauses = [f("env", "string", "eq", #""prod""#), f("number", "number", "eq", "\(k)")]
            triggers.append(#"{"id":"m\#(k)","conditions":[{"type":"custom_event","event_name":"mixed","filters":[\#(clauses.map { "[\($0)]" }.joined(separator: ","))]}]}"#)
            let pattern = k % 2 == 0 ? "^/API/r\(k)/" : "w\(k)x.*y\(k)z"
            triggers.append(#"{"id":"r\#(k)","conditions":[{"type":"custom_event","event_name":"paths","filters":[[\#(f("path", "string", "regex", "\"\(pattern)\""))]]}]}"#)
        }
        let set = try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        var lines: [String] = []
        for k in 0..<300 {
            lines.append(#"{"time":1,"type":"custom_event","name":"mixed","properties":{"env":"prod","number":\#(k)}}"#)
            lines.append(#"{"time":1,"type":"custom_event","name":"paths","properties":{"path":"\#(k % 2 == 0 ? "/api/R\(k)/x" : "-W\(k)X-w\(k)x-Y\(k)Z")"}}"#)
            lines.append(#"{"time":1,"type":"custom_event","name":"paths","properties":{"path":"/api/r\#(k)"}}"#)
        }
        for line in lines { columns.append(try EventDecoder.decode(line: Array(line.utf8))) }
        let reference = ReferenceMatcher(set)
        let index = PredicateIndexMatcher(set, vocabulary: vocabulary)
        XCTAssertEqual((0..<index.buckets.bucketCount).filter { index.plan(of: Int32($0)) == .crowd }.count, 2, "both crowds indexed")
        let scratch = index.makeScratch(for: columns)
        columns.withView { view in
            for i in 0..<view.count {
                let before = scratch.candidates
                index.match(i, in: view, scratch: scratch)
                let expected = reference.match(view.event(at: i))
                XCTAssertEqual(scratch.sortedResults, expected, lines[i])
                XCTAssertLessThanOrEqual(scratch.candidates - before, max(expected.count, 1), lines[i])
            }
        }
    }

    /// Patterns decided without RE2 (`LiteralPattern`, word at a time) answer as RE2 does, on texts
    /// around word boundaries, with capitals, newlines, ſ and Kelvin.
    func testLiteralPatternsAnswerAsRE2() throws {
        let patterns = ["abc", "^abc", "abc$", "^abc$", "ab.*cd", "^ab.*cd$", "abcdefghij", "^/api/v1/r7/", "kqzvtr.*bmwxle",
                        "a.*b.*c", "s", "^k$", "\\.x", "hello world"]
        let alphabet = Array("abcdkqsxABCK/.\n ſ\u{212A}é".unicodeScalars)
        var rng = SystemRandomNumberGenerator()
        for pattern in patterns {
            let regex = try CompiledRegex(pattern)
            for _ in 0..<400 {
                var text = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 0...20, using: &rng) { text.append(alphabet.randomElement(using: &rng)!) }
                // Half the texts hold the pattern's literals, so matches are common.
                var s = String(text)
                if Bool.random(using: &rng) {
                    let literal = pattern.replacingOccurrences(of: ".*", with: String(s.prefix(3)))
                        .replacingOccurrences(of: "^", with: "").replacingOccurrences(of: "$", with: "").replacingOccurrences(of: "\\", with: "")
                    s = Bool.random(using: &rng) ? literal.uppercased() + s : s + literal
                }
                // Events hold their strings in NFC (the Kelvin sign is then K).
                s = s.precomposedStringWithCanonicalMapping
                let bytes = Array(s.utf8)
                let fast = bytes.withUnsafeBufferPointer { regex.search($0.baseAddress, count: $0.count) }
                XCTAssertEqual(fast, regex.search(s), "\(pattern) on \(s.debugDescription)")
            }
        }
        // Word loads near the end of a text read only its bytes.
        let text: [UInt8] = Array("0123456789ABCDEF".utf8)
        text.withUnsafeBufferPointer { t in
            for n in 0...text.count {
                for at in 0..<n {
                    let expected = (at..<min(at + 8, n)).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(ASCIIFold.lower(t[$1])) }
                    XCTAssertEqual(ASCIIFold.word(t.baseAddress!, at: at, count: n), expected, "at \(at) of \(n)")
                }
            }
        }
    }
}
