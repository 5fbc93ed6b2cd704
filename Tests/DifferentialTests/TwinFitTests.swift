import Foundation
import TriggerKit
import Workload
import XCTest

/// `bench fit`'s twin, held without a clock: on data the generator did not make, the twin's
/// candidates and matches per event are within ±20 % of the data's for compiled and predicate-index,
/// the spec holds none of the data's strings, and a fitted spec reads back, scales and refuses what
/// its shape decides.
final class TwinFitTests: XCTestCase {
    /// A small "clinic" data set: names by a steep power law, triggers mostly on the rarer names,
    /// `plan` set by `age` (correlated), bands on `weight`, regexes on `city`, ISO dates, purchases and
    /// push clicks. Every string starts with "qz" so a leak into the spec is easy to find.
    static func clinic(events count: Int, seed: UInt64 = 5) throws -> (set: TriggerSet, json: JSONValue, events: EventColumns, strings: Set<String>) {
        var rng = DeterministicRandom(seed: seed)
        let names = (0..<40).map { "qzname\($0)" }
        let weights = names.indices.map { 1 / pow(Double($0 + 1), 2) }
        let cities = (0..<25).map { "qzcity\($0)" }
        var strings = Set(names + cities + ["qzsenior", "qzadult", "qzjunior", "qzprod", "qzcamp", "qzbutton", "qzage", "qzplan", "qzweight", "qzcity", "qzvisit", "qzinsured"])
        func pick(_ w: [Double]) -> Int {
            var u = rng.unit() * w.reduce(0, +)
            for (i, x) in w.enumerated() { if u < x { return i }; u -= x }
            return w.count - 1
        }
        var triggers: [JSONValue] = []
        func filter(_ p: String, _ t: String, _ op: String, _ v: JSONValue?) -> JSONValue {
            .object([("property", .string(p)), ("type", .string(t)), ("op", .string(op))] + (v.map { [("value", $0)] } ?? []))
        }
        for k in 0..<150 {
            // Authors target the rarer names here: the opposite of the generator's independence.
            let name = names[min(39, 3 + Int(rng.unit() * rng.unit() * 37))]
            var clauses: [JSONValue]
            switch rng.below(5) {
            case 0: clauses = [.array([filter("qzplan", "string", "eq", .string("qzsenior"))]), .array([filter("qzage", "number", "gte", .int(Int64(50 + rng.below(30))))])]
            case 1:
                let lo = Int64(40 + rng.below(80))
                clauses = [.array([filter("qzweight", "number", "gte", .int(lo))]), .array([filter("qzweight", "number", "lt", .int(lo + Int64(2 + rng.below(10))))])]
            case 2: clauses = [.array([filter("qzcity", "string", "regex", .string("^qzcity\(rng.below(3))"))])]
            case 3: clauses = [.array([filter("qzvisit", "date", "more_than_seconds_ago", .int(Int64(86400 * (1 + rng.below(20)))))]),
                               .array([filter("qzinsured", "boolean", "eq", .bool(true)), filter("qzage", "number", "lt", .int(30))])]
            default: clauses = [.array([filter("qzinsured", "boolean", "eq", .bool(true))])]
            }
            var conditions: [JSONValue] = [.object([("type", .string("custom_event")), ("event_name", .string(name)), ("filters", .array(clauses))])]
            if rng.chance(0.1) { conditions.append(.object([("type", .string("purchase")), ("product_id", .string("qzprod\(rng.below(5))"))])) }
            if rng.chance(0.05) { conditions.append(.object([("type", .string("push_click")), ("campaign_id", .string("qzcamp1")), ("action_id", .string("qzbutton"))])) }
            triggers.append(.object([("id", .string("qztrigger\(k)")), ("conditions", .array(conditions))]))
            strings.insert("qztrigger\(k)")
        }
        let json = JSONValue.object([("format", .string(CorpusDecoder.format)), ("triggers", .array(triggers))])
        let set = try CorpusDecoder.decode(json)
        var columns = EventColumns(vocabulary: Vocabulary(set))
        var time = 1_800_000_000.0
        for _ in 0..<count {
            time += 1 + rng.unit()
            switch rng.below(20) {
            case 0: columns.append(Event(time: time, kind: .purchase(productID: "qzprod\(rng.below(8))"), properties: ["qzweight": .int(Int64(50 + rng.below(60)))]))
            case 1: columns.append(Event(time: time, kind: .pushClick(campaignID: "qzcamp\(rng.below(3))", actionID: rng.chance(0.5) ? "qzbutton" : nil)))
            default:
                let age = Int64(10 + rng.below(80))
                var props: [String: PropertyValue] = ["qzage": .int(age), "qzplan": .string(age >= 60 ? "qzsenior" : age >= 18 ? "qzadult" : "qzjunior"),
                                                      "qzweight": .int(Int64(30 + Int(age) + rng.below(40)))]
                if rng.chance(0.7) { props["qzcity"] = .string(cities[pick(cities.indices.map { 1 / Double($0 + 1) })]) }
                if rng.chance(0.5) { props["qzvisit"] = .date(time - rng.unit() * 40 * 86400) }
                if rng.chance(0.8) { props["qzinsured"] = .bool(rng.chance(0.6)) }
                columns.append(Event(time: time, kind: .customEvent(name: names[pick(weights)]), properties: props))
            }
        }
        return (set, json, columns, strings)
    }

    /// Candidates and matches per event of a matcher over every event.
    static func counts(_ matcher: some Matcher, _ events: EventColumns) -> (candidates: Double, matches: Double) {
        let scratch = matcher.makeScratch(for: events)
        var matches = 0
        events.withView { view in
            for i in 0..<view.count {
                matcher.match(i, in: view, scratch: scratch)
                matches += scratch.count
            }
        }
        return (Double(scratch.candidates) / Double(events.count), Double(matches) / Double(events.count))
    }

    func testTheTwinMatchesAsOftenAsTheData() throws {
        let data = try Self.clinic(events: 12_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 3)
        let twinSet = try WorkloadGenerator.corpus(spec)
        let twinEvents = WorkloadGenerator.events(spec, vocabulary: Vocabulary(twinSet))
        XCTAssertEqual(twinSet.triggers.count, data.set.triggers.count)
        XCTAssertEqual(twinEvents.count, data.events.count)
        let pairs: [(String, (candidates: Double, matches: Double), (candidates: Double, matches: Double))] = [
            ("compiled", Self.counts(CompiledMatcher(data.set, vocabulary: Vocabulary(data.set)), data.events),
             Self.counts(CompiledMatcher(twinSet, vocabulary: Vocabulary(twinSet)), twinEvents)),
            ("predicate-index", Self.counts(PredicateIndexMatcher(data.set, vocabulary: Vocabulary(data.set)), data.events),
             Self.counts(PredicateIndexMatcher(twinSet, vocabulary: Vocabulary(twinSet)), twinEvents)),
        ]
        for (strategy, d, t) in pairs {
            print("\(strategy): candidates/event data \(d.candidates), twin \(t.candidates); matches/event data \(d.matches), twin \(t.matches)")
            XCTAssertGreaterThan(d.matches, 0.1, "the data set matches too little to test anything")
            XCTAssertEqual(t.candidates / d.candidates, 1, accuracy: 0.2, "\(strategy) candidates/event: twin \(t.candidates), data \(d.candidates)")
            XCTAssertEqual(t.matches / d.matches, 1, accuracy: 0.2, "\(strategy) matches/event: twin \(t.matches), data \(d.matches)")
        }
    }

    func testTheSpecHoldsNoStringOfTheData() throws {
        let data = try Self.clinic(events: 3_000)
        let text = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1).json.serialized
        XCTAssertFalse(text.contains("qz"), "a string of the data is in the spec")
        for s in data.strings { XCTAssertFalse(text.contains(s), "\(s) is in the spec") }
    }

    func testAFitIsDeterministicAndReadsBack() throws {
        let data = try Self.clinic(events: 2_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1)
        let again = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1)
        XCTAssertEqual(spec.json.serialized, again.json.serialized)
        // The same events with their strings interned in another order (a parallel load meets them so):
        // ids differ, the spec does not.
        var reordered = EventColumns(vocabulary: Vocabulary(TriggerSet(triggers: [])))
        for s in data.strings.sorted(by: >) { _ = reordered.intern(s) }
        for i in 0..<data.events.count { reordered.append(data.events.event(at: i)) }
        let reorderedSpec = try TwinFitter.spec(set: data.set, events: reordered, name: "twin", seed: 1)
        XCTAssertTrue(reorderedSpec.json.serialized == spec.json.serialized, "the fit depends on the order its strings were interned")
        XCTAssertEqual(try WorkloadSpec.decode(Array(spec.json.serialized.utf8), file: "t"), spec)
        XCTAssertEqual(WorkloadGenerator.corpusJSON(spec).serialized, WorkloadGenerator.corpusJSON(again).serialized)
    }

    func testAFittedSpecScalesAndRefusesWhatItsShapeDecides() throws {
        let data = try Self.clinic(events: 2_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1)
        let bigger = try spec.setting("triggers", to: "1500")
        XCTAssertEqual(try WorkloadGenerator.corpus(bigger).triggers.count, 1500)
        XCTAssertEqual(WorkloadGenerator.events(try spec.setting("events", to: "5000"), vocabulary: Vocabulary(data.set)).count, 5000)
        XCTAssertThrowsError(try spec.setting("zipf", to: "1.5")) { XCTAssertTrue("\($0)".contains("not a numeric workload key"), "\($0)") }
        guard case .object(var members) = spec.json else { return XCTFail() }
        members.append(("zipf", .double(1)))
        XCTAssertThrowsError(try WorkloadSpec.decode(Array(JSONValue.object(members).serialized.utf8), file: "s.json")) {
            XCTAssertTrue("\($0)".contains("zipf: a fitted spec's shape decides zipf"), "\($0)")
        }
    }

    /// A hand-edited shape is refused with the path of what is wrong, never trapped on.
    func testAHostileShapeIsRefusedWithItsPath() throws {
        let data = try Self.clinic(events: 1_000)
        let spec = try TwinFitter.spec(set: data.set, events: data.events, name: "twin", seed: 1)
        let text = spec.json.serialized
        let cases: [(String, String, String)] = [
            ("\"fittedTriggers\":150", "\"fittedTriggers\":0", "shape.fittedTriggers"),
            ("\"fittedTriggers\":150", "\"fittedTriggers\":\"x\"", "shape.fittedTriggers"),
            // Valid JSON that an integer field cannot hold: the path and "integer", never "not valid JSON".
            ("\"fittedTriggers\":150", "\"fittedTriggers\":1.5", "shape.fittedTriggers: expected an integer, found 1.5"),
            ("\"fittedTriggers\":150", "\"fittedTriggers\":1e300", "shape.fittedTriggers: expected an integer"),
            ("\"heavy\":[{\"conditions\":", "\"heavy\":[{\"conditions\":2.5e0,\"share\":0},{\"conditions\":", "shape.campaigns.bins[1].heavy[0].conditions: expected an integer, found 2.5"),
            // Past such a number, another fault is named with its path.
            ("\"heavy\":[{\"conditions\":", "\"heavy\":[{\"conditions\":2.5e0},{\"conditions\":", "shape.names.bins[2].heavy[0].share: missing key"),
            ("\"fittedTriggers\":150", "\"fittedTriggers\":150,\"fitedTriggers\":3", "shape.fitedTriggers"),
            ("\"sessionConditions\":", "\"sessionConditions\":9223372036854775807,\"x\":", "shape.x"),
            // Weights that would overflow a sum are refused before anything adds them.
            ("\"heavy\":[{\"conditions\":", "\"heavy\":[{\"conditions\":9223372036854775806,\"share\":0},{\"conditions\":", "shape.names.bins["),
            ("\"keys\":[{", "\"keys\":[{\"type\":\"text\"},{", "shape.keys[0].type"),
            ("\"format\":\"trigger-workload/2\"", "\"format\":\"trigger-workload/1\"", "shape"),
        ]
        for (from, to, path) in cases {
            XCTAssertTrue(text.contains(from), "the spec has no \(from)")
            let edited = text.replacingOccurrences(of: from, with: to)
            XCTAssertThrowsError(try WorkloadSpec.decode(Array(edited.utf8), file: "s.json"), "\(to)") { error in
                XCTAssertTrue("\(error)".hasPrefix("s.json: \(path)"), "\(to): \(error)")
            }
        }
    }

    /// Constants for rare filters are spread over the values of about the wanted weight, and between
    /// two plateaus of weights the draw keeps the expected weight: the index of a twin gathers as few
    /// filters per constant as the data's (thousands of item-id filters once shared one constant).
    func testRareConstantsSpreadAndKeepTheirExpectedWeight() {
        // Two plateaus, as binned string weights are: 100 ranks at 0.006, then 400 at 0.001.
        let weights = Array(repeating: 0.006, count: 100) + Array(repeating: 0.001, count: 400)
        var rng = DeterministicRandom(seed: 3)
        var onPlateau = Set<Int>(), between = Set<Int>(), weight = 0.0
        for _ in 0..<2_000 {
            onPlateau.formUnion(TwinKey.pick(weights, for: 0.001, limit: 1, &rng))
            let r = TwinKey.pick(weights, for: 0.002, limit: 1, &rng)
            XCTAssertEqual(r.count, 1)
            between.formUnion(r)
            weight += r.map { weights[$0] }.reduce(0, +)
        }
        XCTAssertTrue(onPlateau.allSatisfy { $0 >= 100 } && onPlateau.count > 300, "\(onPlateau.count) constants")
        XCTAssertGreaterThan(between.count, 300)
        XCTAssertEqual(weight / 2_000, 0.002, accuracy: 0.0003)
        // A mass no value is near gives none (the caller then names a value no event holds).
        XCTAssertEqual(TwinKey.pick([0.5, 0.5], for: 0.01, limit: 1, &rng), [])
    }
}
