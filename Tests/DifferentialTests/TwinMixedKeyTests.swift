import Foundation
import TriggerKit
import Workload
import XCTest

/// A key whose values come in several types (numbers, strings, booleans and dates under one name): the
/// twin draws each type at its share, so filters of every type keep their matches (the twin once drew
/// the most frequent type only, and the others' filters never held).
final class TwinMixedKeyTests: XCTestCase {
    static func data(events count: Int) throws -> (set: TriggerSet, events: EventColumns) {
        var rng = DeterministicRandom(seed: 9)
        func clause(_ t: String, _ op: String, _ v: JSONValue) -> JSONValue {
            .array([.object([("property", .string("qzv")), ("type", .string(t)), ("op", .string(op)), ("value", v)])])
        }
        func filter(_ t: String, _ op: String, _ v: JSONValue) -> JSONValue { .array([clause(t, op, v)]) }
        let triggers: [JSONValue] = (0..<150).map { i in
            let low = Int64(rng.below(80))
            let filters: JSONValue = switch i % 5 {
            case 0: filter("number", "gt", .int(Int64(rng.below(100))))
            case 1: filter("string", "eq", .string(["qzred", "qzblue"][rng.below(2)]))
            case 2: filter("boolean", "eq", .bool(true))
            case 3: filter("date", "after", .string("2027-03-01T00:00:00Z"))
            // A band: two bounds whose pass rates, taken alone, would overstate it.
            default: .array([clause("number", "gte", .int(low)), clause("number", "lt", .int(low + 10))])
            }
            return .object([("id", .string("qzt\(i)")), ("conditions", .array([.object([
                ("type", .string("custom_event")), ("event_name", .string("qzn\(i % 6)")), ("filters", filters)])]))])
        }
        let set = try CorpusDecoder.decode(.object([("format", .string(CorpusDecoder.format)), ("triggers", .array(triggers))]))
        var columns = EventColumns(vocabulary: Vocabulary(set))
        let start = try XCTUnwrap(ISO8601.parse("2027-01-01T00:00:00Z"))
        for e in 0..<count {
            let value: PropertyValue = switch rng.unit() {
            case ..<0.4: .int(Int64(rng.below(101)))
            case ..<0.7: .string(["qzred", "qzblue", "qzgreen"][rng.below(3)])
            case ..<0.85: .bool(rng.chance(0.5))
            default: .date(start + rng.unit() * 180 * 86400)
            }
            columns.append(Event(time: start + Double(e), kind: .customEvent(name: "qzn\(rng.below(6))"), properties: ["qzv": value]))
        }
        return (set, columns)
    }

    func testEveryTypeOfAMixedKeyKeepsItsMatches() throws {
        let data = try Self.data(events: 12_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 3)
        let key = try XCTUnwrap(spec.shape?.keys.first)
        XCTAssertEqual(key.type, "number")
        XCTAssertEqual(key.others?.map(\.type).sorted(), ["boolean", "date", "string"])
        XCTAssertEqual(key.others?.reduce(0) { $0 + ($1.share ?? 0) } ?? 0, 0.6, accuracy: 0.03)
        let twinSet = try WorkloadGenerator.corpus(spec)
        let twinEvents = WorkloadGenerator.events(spec, vocabulary: Vocabulary(twinSet))
        let d = TwinFitTests.counts(CompiledMatcher(data.set, vocabulary: Vocabulary(data.set)), data.events)
        let t = TwinFitTests.counts(CompiledMatcher(twinSet, vocabulary: Vocabulary(twinSet)), twinEvents)
        XCTAssertGreaterThan(d.matches, 1)
        XCTAssertEqual(t.matches / d.matches, 1, accuracy: 0.2, "matches/event: twin \(t.matches), data \(d.matches)")
    }

    func testOthersOutOfRangeAreRefusedWithTheirPath() throws {
        let data = try Self.data(events: 2_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1)
        XCTAssertNoThrow(try WorkloadSpec.decode(Array(spec.json.serialized.utf8), file: "s.json"))
        let cases: [(String, (inout TwinShape.Key) -> Void)] = [
            ("shape.keys[0].others[0].share", { $0.others![0].share = 1.5 }),
            ("shape.keys[0].others[1].share: missing", { $0.others![1].share = nil }),
            ("shape.keys[0].others[1].type: \(spec.shape!.keys[0].others![0].type) is listed twice", { $0.others![1].type = $0.others![0].type }),
            ("shape.keys[0].others[0].type", { $0.others![0].type = "text" }),
            ("shape.keys[0].share", { $0.share = 0.5 }),
            ("shape.keys[0].others[2].others", { $0.others![2].others = [] }),
            ("shape.keys[0].others: the others' shares sum to", { for i in $0.others!.indices { $0.others![i].share = 0.5 } }),
        ]
        for (path, edit) in cases {
            var edited = spec
            edit(&edited.shape!.keys[0])
            XCTAssertThrowsError(try WorkloadSpec.decode(Array(edited.json.serialized.utf8), file: "s.json"), path) { error in
                XCTAssertTrue("\(error)".hasPrefix("s.json: \(path)"), "\(path): \(error)")
            }
        }
    }
}
