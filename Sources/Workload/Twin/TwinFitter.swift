import Foundation
import TriggerKit

/// Fits a `TwinShape` to a trigger set and its event log (`bench fit`): one pass over the events
/// counts names, keys and values; then every filter is evaluated on a sample of the events of its
/// condition's name, so the twin's filters can be made to pass as often.
package enum TwinFitter {
    /// Events of one member (a name, product or campaign) kept for measuring its conditions.
    static let samplesPerMember = 96
    /// Keys beyond this many (the rarest) are left out of the twin's events.
    static let keptKeys = TwinShape.maxKeys

    /// A spec fitted to loaded data: the same trigger and event counts, the data's kind mix and shape.
    package static func spec(set: TriggerSet, events: EventColumns, name: String, seed: UInt64) throws -> WorkloadSpec {
        guard events.count > 0 else {
            throw InputError(path: "events", reason: "the event log has no valid events to fit; give at least one")
        }
        var spec = WorkloadSpec()
        spec.name = name
        spec.seed = seed
        spec.events = events.count
        spec.triggers = max(1, set.triggers.count)
        var kinds = [Int](repeating: 0, count: 4)
        events.withView { view in for i in 0..<view.count { kinds[Int(view.kinds[i])] += 1 } }
        spec.kinds = Dictionary(uniqueKeysWithValues: WorkloadGenerator.KindPicker.order.map { ($0.0, Double(kinds[Int($0.1.rawValue)]) / Double(events.count)) })
        spec.shape = fit(set, events)
        // What is written is what a reader gets back: a spec that does not decode is a bug here.
        return try WorkloadSpec.decode(Array(spec.json.serialized.utf8), file: fittedFile)
    }

    /// The file a fitted spec's own errors name (the command names the data's files instead).
    package static let fittedFile = "fitted spec"

    package static func fit(_ set: TriggerSet, _ columns: EventColumns) -> TwinShape {
        columns.withView { view in
            var events = EventPass(view)
            events.run()
            var conditions = ConditionPass(set: set, events: events, symbols: columns.symbols)
            return conditions.shape()
        }
    }
}

/// A member of a population: an event's kind and its interned name, product or campaign.
struct Member: Hashable {
    var kind: UInt8
    var id: Int32
}

/// What one pass over the events learns.
struct EventPass {
    let view: EventView
    var kindCounts = [Int](repeating: 0, count: 4)
    var memberEvents: [Member: Int] = [:]
    /// Events of a member that carry a key (by the key's interned id).
    var carrying: [MemberKey: Int] = [:]
    var keys: [Int32: KeyStats] = [:]
    var samples: [Member: [Int]] = [:]
    /// A sample of every purchase, for conditions on any product.
    var purchaseSample: [Int] = []
    var pushWithoutCampaign = 0, pushWithAction = 0
    var actions: [Int32: Int] = [:]
    var firstTime = Double.infinity, lastTime = -Double.infinity
    var rng = DeterministicRandom(seed: 0x7717)

    struct MemberKey: Hashable {
        var member: Member
        var key: Int32
    }

    init(_ view: EventView) { self.view = view }

    mutating func run() {
        var seen: [Member: Int] = [:]
        var purchasesSeen = 0
        for i in 0..<view.count {
            let kind = view.kinds[i]
            kindCounts[Int(kind)] += 1
            let time = view.times[i]
            firstTime = min(firstTime, time)
            lastTime = max(lastTime, time)
            guard let code = EventKindCode(rawValue: kind) else { continue }
            if code == .pushClick {
                if view.keys[i] < 0 { pushWithoutCampaign += 1 }
                if view.actions[i] >= 0 {
                    pushWithAction += 1
                    actions[view.actions[i], default: 0] += 1
                }
            }
            guard code != .sessionStart, view.keys[i] >= 0 else { continue }
            let member = Member(kind: kind, id: view.keys[i])
            memberEvents[member, default: 0] += 1
            let n = seen[member, default: 0]
            seen[member] = n + 1
            Self.reservoir(&samples[member, default: []], i, seen: n, &rng)
            if code == .purchase {
                Self.reservoir(&purchaseSample, i, seen: purchasesSeen, &rng)
                purchasesSeen += 1
            }
            for p in Int(view.propertyStart[i])..<Int(view.propertyStart[i + 1]) {
                let key = view.propertyKeys[p]
                guard let tag = ValueTag(rawValue: view.propertyTags[p]), tag != .null else { continue }
                carrying[MemberKey(member: member, key: key), default: 0] += 1
                keys[key, default: KeyStats()].add(tag, view.propertyBits[p], time: time)
            }
        }
    }

    /// Algorithm R: every one of the `seen + 1` events so far is kept with equal probability.
    static func reservoir(_ sample: inout [Int], _ i: Int, seen: Int, _ rng: inout DeterministicRandom) {
        if sample.count < TwinFitter.samplesPerMember {
            sample.append(i)
        } else {
            let j = rng.below(seen + 1)
            if j < sample.count { sample[j] = i }
        }
    }
}

/// One key's values, by type.
struct KeyStats {
    var typeCounts = [Int](repeating: 0, count: 4)  // number, string, boolean, date
    var present = 0
    var min = Double.infinity, max = -Double.infinity
    /// How often each number occurs (new values stop being counted past the cap), and a uniform sample.
    var numbers: [Double: Int] = [:]
    var numberSample: [Double] = []
    var allIntegers = true
    var strings: [UInt64: Int] = [:]
    var trues = 0
    var offsetMin = Double.infinity, offsetMax = -Double.infinity
    static let distinctCap = 1 << 16
    static let sampleSize = 4096
    static let maxAtoms = 32

    mutating func add(_ tag: ValueTag, _ bits: UInt64, time: Double) {
        present += 1
        switch tag {
        case .int, .double:
            typeCounts[0] += 1
            let d = tag == .int ? Double(Int64(bitPattern: bits)) : Double(bitPattern: bits)
            guard d.isFinite else { return }
            min = Swift.min(min, d)
            max = Swift.max(max, d)
            if tag == .double, d != d.rounded() { allIntegers = false }
            if numbers.count < Self.distinctCap || numbers[d] != nil { numbers[d, default: 0] += 1 }
            if numberSample.count < Self.sampleSize {
                numberSample.append(d)
            } else {
                // Algorithm R with a hash of the count as the draw: deterministic, no generator to carry.
                var x = UInt64(typeCounts[0]) &* 0x9E37_79B9_7F4A_7C15
                x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9
                let j = Int((x ^ (x >> 29)) % UInt64(typeCounts[0]))
                if j < Self.sampleSize { numberSample[j] = d }
            }
        case .string:
            typeCounts[1] += 1
            strings[bits, default: 0] += 1
        case .bool:
            typeCounts[2] += 1
            if bits != 0 { trues += 1 }
        case .date:
            typeCounts[3] += 1
            let offset = Double(bitPattern: bits) - time
            guard offset.isFinite else { return }
            offsetMin = Swift.min(offsetMin, offset)
            offsetMax = Swift.max(offsetMax, offset)
        case .null:
            break
        }
    }

    /// The key's shape in the twin: its most frequent type and that type's distribution, and each
    /// other type its values held with that type's share and distribution.
    var shape: TwinShape.Key {
        let t = typeCounts.indices.max { typeCounts[$0] < typeCounts[$1] } ?? 0
        var key = shape(ofType: t)
        let typed = Double(typeCounts.reduce(0, +))
        let others = typeCounts.indices.filter { $0 != t && typeCounts[$0] > 0 }
            .sorted { typeCounts[$0] != typeCounts[$1] ? typeCounts[$0] > typeCounts[$1] : $0 < $1 }
        if !others.isEmpty {
            key.others = others.map { o in
                var other = shape(ofType: o)
                other.share = Double(typeCounts[o]) / typed
                return other
            }
        }
        return key
    }

    func shape(ofType t: Int) -> TwinShape.Key {
        var key = TwinShape.Key(type: ["number", "string", "boolean", "date"][t])
        func bounded(_ v: Double) -> Double { Swift.max(-1e15, Swift.min(1e15, v)) }
        switch t {
        case 0:
            key.min = min.isFinite ? bounded(min) : 0
            key.max = max.isFinite ? bounded(max) : 0
            key.distinct = Swift.max(1, numbers.count)
            key.integer = allIntegers
            let total = Double(Swift.max(1, typeCounts[0]))
            // Values that hold at least 0.5 % of the key each are atoms; quantiles describe the rest.
            let atoms = numbers.filter { Double($0.value) / total >= 0.005 }
                .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.maxAtoms)
            key.atoms = atoms.map { [bounded($0.key), Double($0.value) / total] }
            let atomValues = Set(atoms.map(\.key))
            let rest = numberSample.filter { !atomValues.contains($0) }.sorted()
            if !rest.isEmpty {
                key.quantiles = (0...16).map { bounded(rest[Swift.min(rest.count - 1, $0 * (rest.count - 1) / 16)]) }
            }
        case 1:
            let repeated = strings.values.filter { $0 > 1 }.sorted(by: >)
            let total = Swift.max(1, typeCounts[1])
            key.distinct = Swift.min(repeated.count, TwinShape.maxDistinct)
            key.zipf = ZipfFit.fit(repeated).exponent
            let repeatedTotal = Double(Swift.max(1, repeated.reduce(0, +)))
            key.bins = (0..<(repeated.isEmpty ? 0 : TwinShape.bin(ofRank: repeated.count - 1) + 1)).map { b in
                Double(TwinShape.binRange(b, count: repeated.count).reduce(0) { $0 + repeated[$1] }) / repeatedTotal
            }
            key.fresh = Double(total - repeated.reduce(0, +)) / Double(total)
        case 2:
            key.trueShare = Double(trues) / Double(Swift.max(1, typeCounts[2]))
        default:
            key.offsetMin = offsetMin.isFinite ? bounded(offsetMin) : 0
            key.offsetMax = offsetMax.isFinite ? bounded(offsetMax) : 0
        }
        return key
    }
}

extension TwinShape.Key {
    init(type: String) { self.type = type }
}
