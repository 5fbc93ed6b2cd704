import TriggerKit
import XCTest

/// A corpus read from bytes decodes its number filters straight from the tape
/// (`CorpusDecoder.numberFilter`); one read from a parsed tree goes through the general decoder. Both
/// must give the same set, or the same refusal, for every filter, of the common shape or near it.
final class FilterDecodingAgreementTests: XCTestCase {
    // A NUL inside a short key or name must not read as the name without it ("gt\u0000" is no "gt").
    static let operators = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "exists", "Gt", "", #"gt\u0000"#]
    static let values = ["3", "3.0", "-0.0", "0", "-7", "2.5", "9007199254740993", "-9223372036854775808", "1e300", "5e-324",
                         "\"3\"", "true", "null", "[1, 2.5]", "{}"]
    static let properties = [#""n""#, #""""#, #""caf\u00e9""#, #""cafe\u0301""#, #""a.b""#, "7"]
    static let types = [#""number""#, #""Number""#, #""string""#, "1", #""number\u0000""#]

    /// The filter's members in one of several orders, sometimes with one missing or one too many.
    static func filter(property: String, type: String, op: String, value: String, variant: Int) -> String {
        var members = [#""property": \#(property)"#, #""type": \#(type)"#, #""op": "\#(op)""#, #""value": \#(value)"#]
        switch variant % 7 {
        case 1: members.reverse()
        case 2: members.swapAt(0, 3)
        case 3: members.append(#""note": "x""#)
        case 4: members.remove(at: 3)
        case 5: members.insert(#""value ": 1"#, at: 1)
        case 6: members[2] = #""op\u0000": "\#(op)""#
        default: break
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    static func corpus(_ filter: String) -> String {
        #"{"format": "trigger-corpus/1", "triggers": [{"id": "t", "conditions": [{"type": "custom_event", "event_name": "e", "filters": [[\#(filter)], [\#(filter), {"property": "m", "type": "number", "op": "gt", "value": 1}]]}]}]}"#
    }

    /// The set as written back, or the refusal.
    static func outcome(_ decode: () throws -> TriggerSet) -> String {
        do { return String(decoding: CorpusEncoder.encode(try decode()), as: UTF8.self) } catch { return "refused: \(error)" }
    }

    func testTapeAndTreeDecodeEveryFilterAlike() throws {
        var compared = 0, accepted = 0, variant = 0
        for op in Self.operators {
            for value in Self.values {
                for property in Self.properties {
                    for type in Self.types {
                        variant += 1
                        let text = Self.corpus(Self.filter(property: property, type: type, op: op, value: value, variant: variant))
                        let fromTape = Self.outcome { try CorpusDecoder.decode(bytes: Array(text.utf8)) }
                        let fromTree = Self.outcome { try CorpusDecoder.decode(JSONValue.parse(text)) }
                        XCTAssertEqual(fromTape, fromTree, text)
                        compared += 1
                        if !fromTape.hasPrefix("refused") { accepted += 1 }
                    }
                }
            }
        }
        // Both outcomes are exercised: a comparison of refusals only would hold for any decoder.
        XCTAssertEqual(compared, 4950)
        XCTAssertGreaterThan(accepted, 100)
        XCTAssertGreaterThan(compared - accepted, 1000)
    }
}
