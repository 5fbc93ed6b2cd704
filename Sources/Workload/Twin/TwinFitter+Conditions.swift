import Foundation
import TriggerKit

/// Members of one event kind ranked by their events (ties by first interning), binned by rank.
struct Ranking {
    var order: [Int32] = []
    var rank: [Int32: Int] = [:]
    var counts: [Int] = []

    init(_ members: [Member: Int], kind: EventKindCode) {
        let mine = members.filter { $0.key.kind == kind.rawValue }.map { ($0.key.id, $0.value) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        order = mine.map(\.0)
        counts = mine.map(\.1)
        for (r, id) in order.enumerated() { rank[id] = r }
    }

    static func bin(ofRank r: Int) -> Int { Int.bitWidth - 1 - (r + 1).leadingZeroBitCount }
    var binCount: Int { order.isEmpty ? 0 : Self.bin(ofRank: order.count - 1) + 1 }
}

/// Counts of a group's conditions: their structure and how often each filter held on the events of
/// the condition's member.
struct FilterAccumulator {
    struct ClassKey: Hashable {
        var key: Int
        var type: String
        var op: String
    }
    var clauses: [Int] = []
    var widths: [Int] = []
    var classes: [ClassKey: [Int: (sum: Double, n: Int)]] = [:]
    var classOrder: [ClassKey] = []
    var actual = 0.0, independent = 0.0
    /// Pass-rate levels: exactly 0, up to each bound, exactly 1.
    static let bounds = [0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 1.0]

    static func level(_ r: Double) -> Int {
        if r <= 0 { return 0 }
        if r >= 1 { return bounds.count + 1 }
        return 1 + bounds.firstIndex { r <= $0 }!
    }

    mutating func add(_ cnf: FilterCNF, events: [Event], keyIndex: [String: Int]) {
        func bump(_ a: inout [Int], _ i: Int) {
            while a.count <= i { a.append(0) }
            a[i] += 1
        }
        bump(&clauses, cnf.clauses.count)
        var clausePasses: [Double] = []
        var conditionHolds = [Bool](repeating: true, count: events.count)
        for clause in cnf.clauses {
            bump(&widths, max(clause.count - 1, 0))
            var clauseHolds = [Bool](repeating: false, count: events.count)
            for filter in clause {
                var held = 0
                for (e, event) in events.enumerated() where FilterEvaluation.holds(filter, properties: event.properties, eventTime: event.time) {
                    held += 1
                    clauseHolds[e] = true
                }
                let key = ClassKey(key: keyIndex[filter.property] ?? -1, type: filter.type.rawValue, op: filter.op.rawValue)
                if classes[key] == nil { classOrder.append(key) }
                // A member without events (a name only triggers know) passes nothing it is never shown.
                let rate = events.isEmpty ? 0 : Double(held) / Double(events.count)
                let level = Self.level(rate)
                let old = classes[key, default: [:]][level] ?? (0, 0)
                classes[key, default: [:]][level] = (old.sum + rate, old.n + 1)
            }
            clausePasses.append(events.isEmpty ? 0 : Double(clauseHolds.filter { $0 }.count) / Double(events.count))
            for e in events.indices where !clauseHolds[e] { conditionHolds[e] = false }
        }
        if cnf.clauses.count >= 2, !events.isEmpty {
            actual += Double(conditionHolds.filter { $0 }.count) / Double(events.count)
            independent += clausePasses.reduce(1, *)
        }
    }

    func filters(presence: [TwinShape.KeyShare]) -> TwinShape.Filters {
        let total = Double(max(1, clauses.reduce(0, +)))
        let clauseCount = Double(max(1, widths.reduce(0, +)))
        let classes = classOrder.map { key in
            let levels = self.classes[key]!.sorted { $0.key < $1.key }
            return TwinShape.FilterClass(
                key: key.key, type: key.type, op: key.op, weight: levels.reduce(0) { $0 + $1.value.n },
                pass: levels.map { TwinShape.Centroid(rate: min(1, max(0, $0.value.sum / Double($0.value.n))), weight: $0.value.n) })
        }
        return TwinShape.Filters(
            presence: presence, clauses: clauses.map { Double($0) / total }, widths: widths.map { Double($0) / clauseCount },
            classes: classes, correlation: independent > 0 ? min(1e6, actual / independent) : 1)
    }
}
