import TriggerKit
import XCTest

/// How `PredicateProgram` is built (a publication rebuilds it): regex memo slots per distinct pattern
/// through the decoder's shared `CompiledRegex` objects, and `in` sets sorted into their pool in place.
final class ProgramBuildTests: XCTestCase {
    func corpus(_ filters: [String]) throws -> TriggerSet {
        let conditions = filters.map { #"{"type":"custom_event","event_name":"e","filters":[[\#($0)]]}"# }
        let triggers = conditions.enumerated().map { #"{"id":"t\#($0.offset)","conditions":[\#($0.element)]}"# }
        return try CorpusDecoder.decode(bytes: Array(#"{"format":"trigger-corpus/1","triggers":[\#(triggers.joined(separator: ","))]}"#.utf8))
    }

    func regex(_ pattern: String, _ op: String = "regex") -> String {
        #"{"property":"p","type":"string","op":"\#(op)","value":"\#(pattern)"}"#
    }

    func testTheDecoderSharesOneRegexPerPatternAndTheProgramOneSlot() throws {
        let set = try corpus([regex("a.c"), regex("x+"), regex("a.c", "not_regex"), regex("A.C")])
        func compiled(_ t: Int) -> CompiledRegex {
            guard case .regex(let re) = set.triggers[t].conditions[0].filters.clauses[0][0].operand else { fatalError("not a regex") }
            return re
        }
        XCTAssertTrue(compiled(0) === compiled(2), "equal patterns share one object")
        XCTAssertFalse(compiled(0) === compiled(1))
        XCTAssertFalse(compiled(0) === compiled(3), "patterns are compared as written (case-insensitive matching is the regex's)")
        XCTAssertEqual(PredicateProgram(set, vocabulary: Vocabulary(set)).regexes.count, 3)
    }

    func testRegexSlotsFindEveryObjectAgainAfterGrowing() throws {
        let objects = try (0..<300).map { try CompiledRegex("p\($0)") }
        var slots = PredicateProgram.RegexSlots()
        for (k, re) in objects.enumerated() {
            XCTAssertEqual(slots.slot(of: re, next: Int32(k)), Int32(k), "a new object takes the next slot")
            // Every earlier object keeps its slot while the table grows (it starts at 64 cells).
            if k % 37 == 0 { for j in 0...k { XCTAssertEqual(slots.slot(of: objects[j], next: -1), Int32(j)) } }
        }
        for (k, re) in objects.enumerated().reversed() { XCTAssertEqual(slots.slot(of: re, next: -1), Int32(k)) }
    }

    func testSortUniqueTailSortsOnlyTheTail() {
        func pool(_ values: [Int32]) -> FrozenBuffer<Int32>.Builder {
            var b = FrozenBuffer<Int32>.Builder(capacity: 1)
            for v in values { b.append(v) }
            return b
        }
        func check(_ values: [Int32], from first: Int, kept: Int, leaves expected: [Int32], line: UInt = #line) {
            var b = pool(values)
            XCTAssertEqual(PredicateProgram.sortUniqueTail(&b, from: first), kept, line: line)
            let frozen = b.freeze()
            XCTAssertEqual((0..<frozen.count).map { frozen[$0] }, expected, line: line)
        }
        check([9, 1, 5, 3, 5, 1, 3, 3], from: 2, kept: 3, leaves: [9, 1, 1, 3, 5])
        check([4, 7], from: 1, kept: 1, leaves: [4, 7])
        check([2], from: 1, kept: 0, leaves: [2])
    }

    func testBuilderGrowsFreezesAndShrinks() {
        var b = FrozenBuffer<UInt64>.Builder(capacity: 1)
        for v in 0..<1000 { b.append(UInt64(v) * 3) }
        b[10] = 7
        b.truncate(to: 900)
        let frozen = b.freeze()
        XCTAssertEqual(frozen.count, 900)
        XCTAssertEqual(frozen[10], 7)
        XCTAssertEqual((0..<900).filter { $0 != 10 }.allSatisfy { frozen[$0] == UInt64($0) * 3 }, true)
        let empty = FrozenBuffer<UInt8>.Builder().freeze()
        XCTAssertEqual(empty.count, 0)
    }

    /// Two `in` sets given unsorted and with repeats, one after the other in the pool: each holds exactly
    /// its own strings in `compiled`, as in `reference`.
    func testInSetsWithRepeatsMatchAsReference() throws {
        let set = try corpus([
            #"{"property":"p","type":"string","op":"in","value":["m","b","m","a"]}"#,
            #"{"property":"p","type":"string","op":"not_in","value":["z","c","z"]}"#,
        ])
        let vocabulary = Vocabulary(set)
        var columns = EventColumns(vocabulary: vocabulary)
        let values = ["a", "b", "c", "m", "z", "q"]
        for v in values { columns.append(Event(time: 1, kind: .customEvent(name: "e"), properties: ["p": .string(v)])) }
        let compiled = CompiledMatcher(set, vocabulary: vocabulary)
        let reference = ReferenceMatcher(set)
        let scratch = compiled.makeScratch(for: columns)
        columns.withView { view in
            for (i, v) in values.enumerated() {
                compiled.match(i, in: view, scratch: scratch)
                let expected = reference.match(Event(time: 1, kind: .customEvent(name: "e"), properties: ["p": .string(v)]))
                XCTAssertEqual(scratch.sortedResults, expected, "p = \(v)")
            }
        }
        XCTAssertEqual(reference.match(Event(time: 1, kind: .customEvent(name: "e"), properties: ["p": .string("m")])), [0, 1])
        XCTAssertEqual(reference.match(Event(time: 1, kind: .customEvent(name: "e"), properties: ["p": .string("c")])), [])
    }
}
