import Foundation
import TriggerKit

/// Members of one event kind ranked by their events, binned by rank. Ties go by the member's text:
/// interned ids depend on the order a parallel load met the strings, and a fit must not.
struct Ranking {
    var order: [Int32] = []
    var rank: [Int32: Int] = [:]
    var counts: [Int] = []

    init(_ members: [Member: Int], kind: EventKindCode, strings: UnsafeBufferPointer<String>) {
        let mine: [(id: Int32, events: Int)] = members.filter { $0.key.kind == kind.rawValue }.map { ($0.key.id, $0.value) }
        let sorted = mine.sorted { a, b in a.events != b.events ? a.events > b.events : strings[Int(a.id)] < strings[Int(b.id)] }
        order = sorted.map(\.id)
        counts = sorted.map(\.events)
        for (r, id) in order.enumerated() { rank[id] = r }
    }

    var binCount: Int { order.isEmpty ? 0 : TwinShape.bin(ofRank: order.count - 1) + 1 }
}

/// A group's conditions: their structure and how often each filter held on the events of the
/// condition's member. Frequent structures are kept whole as templates; the rest as a mix.
struct FilterAccumulator {
    struct ClassKey: Hashable {
        var key: Int
        var type: String
        var op: String
    }
    /// One measured condition: its filters' classes by clause, each filter's pass rate, and how often
    /// the whole condition held against what independent clauses would give.
    struct Measured {
        var signature: [[ClassKey]]
        var rates: [[Double]]
        /// Share of the sample carrying each filter's key (any non-null value).
        var present: [Double]
        var actual: Double
        var independent: Double
        /// Events the rates were measured on.
        var samples: Int
    }
    var measured: [Measured] = []
    /// Pass-rate levels: exactly 0, up to each bound, exactly 1.
    static let bounds = [0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 1.0]

    static func level(_ r: Double) -> Int {
        if r <= 0 { return 0 }
        if r >= 1 { return bounds.count + 1 }
        return 1 + bounds.firstIndex { r <= $0 }!
    }

    mutating func add(_ cnf: FilterCNF, events: [Event], keyIndex: [String: Int]) {
        var signature: [[ClassKey]] = [], rates: [[Double]] = [], clausePasses: [Double] = [], present: [Double] = []
        var conditionHolds = [Bool](repeating: true, count: events.count)
        for clause in cnf.clauses {
            var clauseHolds = [Bool](repeating: false, count: events.count)
            var keys: [ClassKey] = [], clauseRates: [Double] = []
            for filter in clause {
                var held = 0
                for (e, event) in events.enumerated() where FilterEvaluation.holds(filter, properties: event.properties, eventTime: event.time) {
                    held += 1
                    clauseHolds[e] = true
                }
                let carrying = events.reduce(0) { $0 + (($1.properties[filter.property].map { $0 != .null } ?? false) ? 1 : 0) }
                present.append(events.isEmpty ? 0 : Double(carrying) / Double(events.count))
                keys.append(ClassKey(key: keyIndex[filter.property] ?? -1, type: filter.type.rawValue, op: filter.op.rawValue))
                // A member without events (a name only triggers know) passes nothing it is never shown.
                clauseRates.append(events.isEmpty ? 0 : Double(held) / Double(events.count))
            }
            signature.append(keys)
            rates.append(clauseRates)
            clausePasses.append(events.isEmpty ? 0 : Double(clauseHolds.filter { $0 }.count) / Double(events.count))
            for e in events.indices where !clauseHolds[e] { conditionHolds[e] = false }
        }
        let actual = events.isEmpty || cnf.clauses.isEmpty ? 0 : Double(conditionHolds.filter { $0 }.count) / Double(events.count)
        measured.append(Measured(signature: signature, rates: rates, present: present, actual: actual, independent: clausePasses.reduce(1, *), samples: events.count))
    }

    /// Pass rates as (mean, count) centroids of their levels. Rates too rare for the sample to resolve
    /// (under two expected hits per condition) are one centroid at their mean: a filter that held on 0
    /// of 96 events mostly holds on a few in 10,000, and 0 would lose those matches.
    static func centroids(_ rates: [Double], samples: [Int]) -> [TwinShape.Centroid] {
        let mean = rates.reduce(0, +) / Double(max(1, rates.count))
        let typical = samples.isEmpty ? 0 : Double(samples.reduce(0, +)) / Double(samples.count)
        if !rates.isEmpty, unresolved(mean, samples: typical) {
            return [TwinShape.Centroid(rate: mean, weight: rates.count)]
        }
        var levels: [Int: (sum: Double, n: Int)] = [:]
        for r in rates { levels[level(r), default: (0, 0)].sum += r; levels[level(r)]!.n += 1 }
        return levels.sorted { $0.key < $1.key }.map { TwinShape.Centroid(rate: min(1, max(0, $0.value.sum / Double($0.value.n))), weight: $0.value.n) }
    }

    static let maxRows = 64

    /// Whether a mean rate over this many samples per condition expects under two hits (or misses):
    /// too few to tell one condition's rate from another's.
    static func unresolved(_ mean: Double, samples typical: Double) -> Bool {
        mean > 0 && (mean * typical < 2 || (1 - mean) * typical < 2)
    }

    /// A template's conditions grouped by the levels of all their filters' rates at once (a filter too
    /// rare to resolve counts at its mean, as in `centroids`), the largest groups kept.
    static func rows(_ conditions: [Measured]) -> [TwinShape.Row] {
        var flat = conditions.map { $0.rates.flatMap { $0 } }
        let typical = Double(conditions.reduce(0) { $0 + $1.samples }) / Double(max(1, conditions.count))
        for f in (flat.first ?? []).indices {
            let mean = flat.reduce(0) { $0 + $1[f] } / Double(max(1, flat.count))
            if unresolved(mean, samples: typical) { for i in flat.indices { flat[i][f] = mean } }
        }
        var groups: [[Int]: [Int]] = [:], order: [[Int]] = []
        for (i, rates) in flat.enumerated() {
            let levels = rates.map(level)
            if groups[levels] == nil { order.append(levels) }
            groups[levels, default: []].append(i)
        }
        let kept = order.enumerated().sorted { a, b in
            let (x, y) = (groups[a.element]!.count, groups[b.element]!.count)
            return x != y ? x > y : a.offset < b.offset
        }.prefix(maxRows).map(\.element)
        return kept.map { levels in
            let members = groups[levels]!
            let rates = flat[0].indices.map { f in min(1, max(0, members.reduce(0) { $0 + flat[$1][f] } / Double(members.count))) }
            let present = flat[0].indices.map { f in min(1, max(0, members.reduce(0) { $0 + conditions[$1].present[f] } / Double(members.count))) }
            return TwinShape.Row(weight: members.count, rates: rates, present: present, correlation: correlation(members.map { conditions[$0] }))
        }
    }

    static func correlation(_ conditions: [Measured]) -> Double {
        let multi = conditions.filter { $0.signature.count >= 2 }
        let independent = multi.reduce(0) { $0 + $1.independent }
        return independent > 0 ? min(1e6, multi.reduce(0) { $0 + $1.actual } / independent) : 1
    }

    func filters(presence: [TwinShape.KeyShare]) -> TwinShape.Filters {
        var bySignature: [[[ClassKey]]: [Int]] = [:]
        var order: [[[ClassKey]]] = []
        for (i, m) in measured.enumerated() where m.signature.reduce(0, { $0 + $1.count }) <= TwinShape.maxTemplateFilters {
            if bySignature[m.signature] == nil { order.append(m.signature) }
            bySignature[m.signature, default: []].append(i)
        }
        // Stable: equal counts keep their first-seen order, so a fit is the same bytes every time.
        let kept = order.enumerated().sorted { a, b in
            let (x, y) = (bySignature[a.element]!.count, bySignature[b.element]!.count)
            return x != y ? x > y : a.offset < b.offset
        }.prefix(TwinShape.maxTemplates).map(\.element)
        var inTemplate = [Bool](repeating: false, count: measured.count)
        let templates = kept.map { signature -> TwinShape.Template in
            let members = bySignature[signature]!
            for i in members { inTemplate[i] = true }
            let clauses = signature.map { keys in keys.map { TwinShape.Slot(key: $0.key, type: $0.type, op: $0.op) } }
            return TwinShape.Template(weight: members.count, clauses: clauses, rows: Self.rows(members.map { measured[$0] }))
        }
        let rest = measured.indices.filter { !inTemplate[$0] }.map { measured[$0] }
        var clauses: [Int] = [], widths: [Int] = []
        var classRates: [ClassKey: [Double]] = [:], classSamples: [ClassKey: [Int]] = [:], classOrder: [ClassKey] = []
        func bump(_ a: inout [Int], _ i: Int) {
            while a.count <= i { a.append(0) }
            a[i] += 1
        }
        for m in rest {
            bump(&clauses, min(m.signature.count, TwinShape.maxClauses))
            for (c, keys) in m.signature.enumerated() {
                bump(&widths, min(max(keys.count - 1, 0), TwinShape.maxWidth - 1))
                for (f, key) in keys.enumerated() {
                    if classRates[key] == nil { classOrder.append(key) }
                    classRates[key, default: []].append(m.rates[c][f])
                    classSamples[key, default: []].append(m.samples)
                }
            }
        }
        let total = Double(max(1, clauses.reduce(0, +))), clauseCount = Double(max(1, widths.reduce(0, +)))
        return TwinShape.Filters(
            presence: presence, templates: templates, clauses: clauses.map { Double($0) / total }, widths: widths.map { Double($0) / clauseCount },
            classes: classOrder.map { key in
                let rates = classRates[key]!
                return TwinShape.FilterClass(key: key.key, type: key.type, op: key.op, weight: rates.count, pass: Self.centroids(rates, samples: classSamples[key]!))
            },
            correlation: Self.correlation(rest))
    }
}
