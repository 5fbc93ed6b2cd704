import TriggerKit
import XCTest

/// A corpus too big for the memory there is refused with one line at the place it stops fitting; one
/// that fits decodes. The room measured is a fixed figure less what the allowance recorded, as if
/// nothing were freed.
final class MemoryAllowanceTests: XCTestCase {
    static let spare = 8 << 20
    final class Measured { var allowance: MemoryAllowance? }

    static func allowance() -> MemoryAllowance {
        let measured = Measured()
        let allowance = MemoryAllowance(measure: { MemoryAllowance.reserve + spare - (measured.allowance?.recorded ?? 0) })
        measured.allowance = allowance
        return allowance
    }

    static func corpus(lists: [Int]) -> [UInt8] {
        let triggers = lists.enumerated().map { i, n in
            let values = (0..<n).map { String($0 % 10) }.joined(separator: ",")
            return #"{"id":"t\#(i)","conditions":[{"type":"custom_event","event_name":"e","filters":[[{"property":"n","type":"number","op":"in","value":[\#(values)]}]]}]}"#
        }
        return Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8)
    }

    func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try CorpusDecoder.decode(bytes: bytes, allowance: Self.allowance())
            XCTFail("decoded within \(Self.spare) bytes")
            return ""
        } catch { return "\(error)" }
    }

    func testAClaimPastTheRoomIsRefusedWithWhatItNeedsAndWhatIsAvailable() {
        let allowance = Self.allowance()
        XCTAssertNoThrow(try allowance.claim(Self.spare / 2))
        XCTAssertThrowsError(try allowance.claim(Self.spare + 1)) { error in
            let exceeded = error as? MemoryAllowance.Exceeded
            XCTAssertEqual(exceeded?.available, Self.spare)
            XCTAssertEqual(exceeded?.extrapolated(done: 1, of: 4).need, 4 * (Self.spare / 2 + Self.spare + 1))
        }
        XCTAssertNoThrow(try MemoryAllowance.unlimited.claim(Int.max / 2))
    }

    func testSmallTriggersDecodeWithinTheAllowance() throws {
        XCTAssertEqual(try CorpusDecoder.decode(bytes: Self.corpus(lists: [10, 2000, 30]), allowance: Self.allowance()).triggers.count, 3)
    }

    func testATriggerWhoseValuesOutgrowTheTapeIsRefusedWhereParsingStops() {
        let error = refusal(Self.corpus(lists: [5, 400_000]))
        XCTAssertTrue(error.contains("line 1, column "), error)
        XCTAssertTrue(error.contains("parsing it needs more than"), error)
        XCTAssertFalse(error.contains("invalid JSON"), error)
    }

    func testAStringOfEscapesPastTheRoomIsRefusedWhereParsingStops() {
        let name = String(repeating: #"\t"#, count: 5_000_000)
        let error = refusal(Array(#"{"format":"trigger-corpus/1","triggers":[{"id":"a","conditions":[{"type":"custom_event","event_name":"\#(name)"}]}]}"#.utf8))
        XCTAssertTrue(error.contains("line 1, column "), error)
        XCTAssertTrue(error.contains("(escaped strings, "), error)
        XCTAssertFalse(error.contains("invalid JSON"), error)
    }

    func testATriggerTooBigToDecodeIsRefusedNamingItAndTheNeed() {
        let error = refusal(Self.corpus(lists: [5, 100_000, 5]))
        XCTAssertTrue(error.hasPrefix("triggers[1]: stopped after 1 of 3 triggers: decoding them all needs more than"), error)
        XCTAssertTrue(error.contains("and 8 MiB is available; load fewer triggers or free memory"), error)
    }

    func testAListOfAMillionNumbersIsRefusedAtItsFirstElement() {
        // A million elements in two megabytes: counted, then refused at the first.
        let bytes = Array(#"{"format":"trigger-corpus/1","triggers":["#.utf8) + Array(repeating: Array("1,".utf8), count: 999_999).joined() + Array("1]}".utf8)
        XCTAssertTrue(refusal(bytes).hasPrefix("triggers[0]: expected a trigger (an object), found number"), refusal(bytes))
    }

    func testADeltaTooBigToDecodeIsRefusedBeforeItsTriggers() {
        func delta(_ lists: [Int]) -> [UInt8] {
            let corpus = String(decoding: Self.corpus(lists: lists), as: UTF8.self)
            let triggers = corpus[corpus.range(of: #""triggers":"#)!.upperBound...].dropLast()
            return Array(#"{"format":"trigger-delta/1","add":\#(triggers)}"#.utf8)
        }
        XCTAssertEqual(try DeltaDecoder.decode(bytes: delta([10, 30]), allowance: Self.allowance()).add.count, 2)
        do {
            _ = try DeltaDecoder.decode(bytes: delta([5, 100_000, 5]), allowance: Self.allowance())
            XCTFail("decoded within \(Self.spare) bytes")
        } catch {
            XCTAssertTrue("\(error)".hasPrefix("$: decoding its triggers needs more than"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("split the delta or free memory"), "\(error)")
        }
    }
}
