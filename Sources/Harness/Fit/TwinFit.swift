import Foundation
import TriggerKit
import Workload

/// `bench fit`: a workload spec fitted to someone's corpus and event log, and how closely runs of
/// its twin cost what runs of the data cost (docs/harness.md, "Your data's twin").
package enum TwinFit {
    /// The targets a twin is held to for `compiled` and `predicate-index`.
    package static let countTolerance = 0.20
    package static let timeTolerance = 0.25
    package static let heldStrategies = ["compiled", "predicate-index"]

    /// One strategy's figures on the data and on its twin.
    package struct Row: Sendable {
        package var strategy: String
        package var data: (ns: Double, candidates: Double, matches: Double)
        package var twin: (ns: Double, candidates: Double, matches: Double)

        static func ratio(_ twin: Double, _ data: Double) -> Double {
            data == 0 ? (twin == 0 ? 1 : .infinity) : twin / data
        }
        package var nsRatio: Double { Self.ratio(twin.ns, data.ns) }
        package var candidateRatio: Double { Self.ratio(twin.candidates, data.candidates) }
        package var matchRatio: Double { Self.ratio(twin.matches, data.matches) }

        package var held: Bool { TwinFit.heldStrategies.contains(strategy) }
        package var countsWithin: Bool {
            abs(candidateRatio - 1) <= TwinFit.countTolerance && abs(matchRatio - 1) <= TwinFit.countTolerance
        }
        package var timeWithin: Bool { abs(nsRatio - 1) <= TwinFit.timeTolerance }
    }

    /// The unpublished single-thread rows of rounds of data and twin runs, strategy by strategy:
    /// each side's median ns/event over the rounds, and its counts (the same in every round).
    package static func compare(_ rounds: [(data: RunReport, twin: RunReport)]) -> [Row] {
        let plain = { (r: StrategyResult) in r.key.threads == 1 && r.key.publication == .none }
        func figures(_ reports: [RunReport], _ strategy: String) -> (Double, Double, Double)? {
            let rows = reports.compactMap { $0.results.first { plain($0) && $0.strategy == strategy } }
            guard let first = rows.first else { return nil }
            let ns = rows.map(\.timing.nsPerEvent.mean).sorted()
            let median = ns.count % 2 == 1 ? ns[ns.count / 2] : (ns[ns.count / 2 - 1] + ns[ns.count / 2]) / 2
            return (median, first.matches.candidatesPerEvent, first.matches.matchesPerEvent)
        }
        guard let first = rounds.first else { return [] }
        return first.data.results.filter(plain).compactMap { d in
            guard let data = figures(rounds.map(\.data), d.strategy), let twin = figures(rounds.map(\.twin), d.strategy) else { return nil }
            return Row(strategy: d.strategy, data: data, twin: twin)
        }
    }

    /// The fidelity table `bench fit --check` prints.
    package static func table(_ rows: [Row], events: Int) -> String {
        func n(_ v: Double) -> String { v >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v) }
        func r(_ v: Double) -> String { v.isFinite ? String(format: "%.2f×", v) : "∞" }
        var lines = ["fidelity at \(events) events each: the twin's figure ÷ the data's (targets for \(heldStrategies.joined(separator: " and ")): "
            + "cand/ev and match/ev within ±\(Int(countTolerance * 100)) %, ns/event within ±\(Int(timeTolerance * 100)) %)"]
        let header = ["strategy", "ns/ev data", "twin", "ratio", "cand/ev data", "twin", "ratio", "match/ev data", "twin", "ratio", "verdict"]
        var cells = [header]
        for row in rows {
            let verdict = !row.held ? "(not held)" : !row.countsWithin ? "OUTSIDE" : row.timeWithin ? "within" : "time outside"
            cells.append([row.strategy, n(row.data.ns), n(row.twin.ns), r(row.nsRatio), n(row.data.candidates), n(row.twin.candidates),
                          r(row.candidateRatio), n(row.data.matches), n(row.twin.matches), r(row.matchRatio), verdict])
        }
        let widths = header.indices.map { c in cells.map { $0[c].count }.max()! }
        for row in cells {
            lines.append(row.enumerated().map { c, s in c == 0 ? s.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[c] - s.count) + s }.joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }
}
