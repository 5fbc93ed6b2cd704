import Foundation
import TriggerKit

/// Content-based publish/subscribe, the workload of BE-Tree, Rein, TAMA, OpIndex and HEM
/// (docs/harness.md, "Range subscriptions"): each trigger is a subscription of `k` interval
/// constraints `low ≤ a_j ≤ low + width × domain` on `k` distinct attributes of `d`, drawn uniformly
/// or, with `skew` > 0, Zipf-distributed; lows are uniform. Each event carries `m` of the `d`
/// attributes (uniformly chosen) with uniform values. About `width^k × N` matches per event.
package struct PubSubShape: Sendable, Equatable {
    package var k = 10
    package var d = 20
    package var width = 0.5
    package var skew = 0.0
    /// Attributes per event; nil: all `d`.
    package var m: Int?

    static let domain = 1_000_000
    static let eventName = "publish"
    static let keys = ["k", "d", "width", "skew", "m"]

    static func attribute(_ j: Int) -> String { "a\(j)" }

    package init() {}

    package static func decode(_ v: JSONValue, file: String) throws -> PubSubShape {
        func fail(_ path: String, _ reason: String) -> InputError { InputError(file: file, path: "pubsub" + path, reason: reason) }
        guard case .object(let members) = v else { throw fail("", "expected {\"k\": 10, \"d\": 20, \"width\": 0.5, \"skew\": 0, \"m\": 20}") }
        var shape = PubSubShape()
        func int(_ v: JSONValue, _ key: String, _ range: ClosedRange<Int>) throws -> Int {
            guard case .int(let i) = v, range.contains(Int(i)) else {
                throw fail(".\(key)", "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(v.serialized)")
            }
            return Int(i)
        }
        for (key, value) in members {
            switch key {
            // Each interval is two comparisons, each its own clause, and a condition holds at most 64.
            case "k": shape.k = try int(value, key, 1...32)
            case "d": shape.d = try int(value, key, 1...10_000)
            case "m": shape.m = try int(value, key, 1...EventDecoder.maxProperties)
            case "width":
                guard let w = value.number, w > 0, w <= 1 else { throw fail(".width", "expected a share above 0 and at most 1, found \(value.serialized)") }
                shape.width = w
            case "skew":
                guard let s = value.number, s >= 0, s <= 10 else { throw fail(".skew", "expected a Zipf exponent from 0 to 10, found \(value.serialized)") }
                shape.skew = s
            default: throw fail(".\(key)", "unknown key; allowed: \(keys.joined(separator: ", "))")
            }
        }
        guard shape.k <= shape.d else { throw fail(".k", "\(shape.k) constraints need at least as many attributes; d is \(shape.d)") }
        if let m = shape.m, m > shape.d { throw fail(".m", "events cannot carry \(m) of \(shape.d) attributes") }
        guard shape.attributesPerEvent <= EventDecoder.maxProperties else {
            throw fail(".m", "events carry every one of the \(shape.d) attributes unless m says fewer; at most \(EventDecoder.maxProperties) per event")
        }
        return shape
    }

    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("k", .int(Int64(k))), ("d", .int(Int64(d))), ("width", .double(width)), ("skew", .double(skew))]
        if let m { members.append(("m", .int(Int64(m)))) }
        return .object(members)
    }

    var attributesPerEvent: Int { m ?? d }

    /// `k` distinct attributes, by weight `1 / rank^skew` (Efraimidis–Spirakis: the `k` largest `u^(1/w)`).
    func attributes(_ rng: inout DeterministicRandom, _ keys: inout [(Double, Int)]) -> ArraySlice<(Double, Int)> {
        keys.removeAll(keepingCapacity: true)
        for j in 0..<d {
            let weight = skew == 0 ? 1 : pow(Double(j + 1), -skew)
            keys.append((log(max(rng.unit(), 0x1p-60)) / weight, j))
        }
        keys.sort { $0.0 > $1.0 }
        return keys.prefix(k)
    }

    /// Each of the corpus's `triggers` subscriptions, in order, made one at a time.
    func forEachTrigger(triggers: Int, seed: UInt64, _ body: (JSONValue) throws -> Void) rethrows {
        var rng = DeterministicRandom(seed: seed &* 0x9E37_79B9 &+ 1)
        let span = Int((width * Double(Self.domain)).rounded())
        var keys: [(Double, Int)] = []
        var clauses: [JSONValue] = []
        clauses.reserveCapacity(2 * k)
        for i in 0..<triggers {
            clauses.removeAll(keepingCapacity: true)
            for (_, j) in attributes(&rng, &keys).sorted(by: { $0.1 < $1.1 }) {
                let low = rng.below(Self.domain - span + 1)
                clauses.append(.array([WorkloadGenerator.filterJSON(Self.attribute(j), "number", "gte", .int(Int64(low)))]))
                clauses.append(.array([WorkloadGenerator.filterJSON(Self.attribute(j), "number", "lte", .int(Int64(low + span)))]))
            }
            try body(.object([("id", .string("sub-\(i)")), ("re_eligibility", .int(0)),
                              ("conditions", .array([.object([("type", .string("custom_event")),
                                                              ("event_name", .string(Self.eventName)),
                                                              ("filters", .array(clauses))])]))]))
        }
    }

    /// `count` events straight into replay buffers.
    func events(seed: UInt64, vocabulary: Vocabulary, count n: Int, progress: ((Int) -> Void)?) -> EventColumns {
        var rng = DeterministicRandom(seed: seed &* 0x9E37_79B9 &+ 2)
        var columns = EventColumns(vocabulary: vocabulary)
        let m = attributesPerEvent
        columns.reserveCapacity(events: n, properties: n * m)
        let name = columns.intern(Self.eventName)
        let keyIDs = (0..<d).map { columns.intern(Self.attribute($0)) }
        var chosen = Array(0..<d)
        var props: [(key: Int32, tag: ValueTag, bits: UInt64)] = []
        for e in 0..<n {
            if let progress, e & 0xFFFF == 0 { progress(e) }
            props.removeAll(keepingCapacity: true)
            if m < d {
                for t in 0..<m { chosen.swapAt(t, t + rng.below(d - t)) }
            }
            for t in 0..<m {
                props.append((keyIDs[chosen[t]], .int, UInt64(bitPattern: Int64(rng.below(Self.domain)))))
            }
            props.sort { $0.key < $1.key }
            props.withUnsafeBufferPointer {
                columns.appendEncoded(kind: .customEvent, key: name, action: -1, time: WorkloadGenerator.startTime + Double(e), properties: $0)
            }
        }
        return columns
    }
}
