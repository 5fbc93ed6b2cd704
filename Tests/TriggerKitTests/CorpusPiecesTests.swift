import TriggerKit
import XCTest

/// A long list of triggers decoded in two pieces on two threads gives the set, or the first error,
/// that one piece from first to last gives.
final class CorpusPiecesTests: XCTestCase {
    /// Long enough to be split (at trigger 8,192), ids, names and patterns holding commas, brackets and escaped quotes.
    static let count = CorpusDecoder.piecewiseFrom * 3 / 2 + 17

    static func trigger(_ i: Int) -> String {
        #"{"id":"t\#(i)","conditions":[{"type":"custom_event","event_name":"e,\"]\#(i % 7)","filters":[[{"property":"p","type":"string","op":"regex","value":"^a\#(i % 3)[,\\]]"}]]}]}"#
    }

    /// A trigger whose priority is `depth` arrays deep (2 levels below the root already).
    static func nested(_ depth: Int) -> String {
        #"{"id":"deep","priority":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + #","conditions":[{"type":"session_start"}]}"#
    }

    static func corpus(_ edit: (Int) -> String? = { _ in nil }) -> String {
        let triggers = (0..<count).map { edit($0) ?? trigger($0) }
        return "{\"format\":\"trigger-corpus/1\",\"triggers\":[\n" + triggers.joined(separator: ",\n") + "\n]}"
    }

    /// The decoded set written back, or the error, with and without pieces; they must be equal.
    func assertSameOutcome(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        func outcome(_ inPieces: Bool) -> String {
            do {
                let set = try CorpusDecoder.decode(bytes: Array(text.utf8), allowance: MemoryAllowance(), inPieces: inPieces)
                return "ok " + String(decoding: CorpusEncoder.encode(set), as: UTF8.self)
            } catch {
                return "error \(error)"
            }
        }
        let whole = outcome(false), pieces = outcome(true)
        XCTAssertEqual(pieces, whole, what, file: file, line: line)
        return pieces
    }

    func testAValidListDecodesAlikeAndSharesItsRegexesAcrossPieces() throws {
        XCTAssert(assertSameOutcome(Self.corpus(), "valid").hasPrefix("ok "))
        let set = try CorpusDecoder.decode(bytes: Array(Self.corpus().utf8), allowance: MemoryAllowance())
        func regex(_ t: Int) -> CompiledRegex? {
            guard case .customEvent(_, let cnf) = set.triggers[t].conditions[0], case .regex(let re) = cnf.clauses[0][0].operand else { return nil }
            return re
        }
        XCTAssertNotNil(regex(3))
        XCTAssert(regex(3) === regex(3 * 3_000), "one pattern, one compiled regex, in both pieces")
    }

    func testTheFirstErrorInListOrderIsReported() {
        let badOp = #"{"id":"bad","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"p","type":"string","op":"gte","value":"x"}]]}]}"#
        let unbalanced = #"{"id":"t100,"conditions":[]}"#
        let syntax = #"{"id":"s","conditions":[{"type":"session_start"},]}"#
        let cases: [(String, [Int: String])] = [
            ("a quote unbalanced in the first piece", [100: unbalanced]),
            ("a syntax error in the second piece", [10_000: syntax]),
            ("a bad operator, then a syntax error, in the second piece", [10_000: badOp, 11_000: syntax]),
            ("a duplicate within the second piece", [9_500: Self.trigger(9_000)]),
            ("a duplicate across the pieces", [10_000: Self.trigger(5)]),
            ("an error in the second piece before a duplicate across", [9_000: badOp, 10_000: Self.trigger(5)]),
            ("a duplicate across before an error in the second piece", [9_000: Self.trigger(5), 10_000: badOp]),
            ("a duplicate across, and within the second piece later", [9_000: Self.trigger(5), 9_100: Self.trigger(5)]),
            ("errors in both pieces", [100: badOp, 9_000: syntax]),
            ("an error on the piece's last trigger", [8_191: badOp]),
            ("an error on the second piece's first trigger", [8_192: badOp]),
            ("nesting to the limit in the second piece (on its own thread's stack)", [10_000: Self.nested(JSONTape.defaultMaxDepth - 2)]),
            ("nesting past the limit in the second piece", [10_000: Self.nested(JSONTape.defaultMaxDepth)]),
        ]
        for (what, edits) in cases {
            XCTAssert(assertSameOutcome(Self.corpus { edits[$0] }, what).hasPrefix("error "), what)
        }
    }
}
