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
        /// The twin's ns/event over the data's in each round (the two ran back to back in it).
        package var roundRatios: [Double] = []

        package init(strategy: String, data: (ns: Double, candidates: Double, matches: Double),
                     twin: (ns: Double, candidates: Double, matches: Double), roundRatios: [Double] = []) {
            (self.strategy, self.data, self.twin, self.roundRatios) = (strategy, data, twin, roundRatios)
        }

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

        /// Time is outside only when every round, of three or more, is outside on the same side: a
        /// busy host moves single rounds by more than the tolerance (one README run gave 293 ns
        /// against 63), and a twin whose cost differs does so in every round.
        package var timeVerdict: TimeVerdict {
            if timeWithin { return .within }
            let band = (1 - TwinFit.timeTolerance)...(1 + TwinFit.timeTolerance)
            let consistent = roundRatios.count >= 3
                && (roundRatios.allSatisfy { $0 > band.upperBound } || roundRatios.allSatisfy { $0 < band.lowerBound })
            return consistent ? .outside : .unsure
        }

        /// Whether the row fails the check: counts outside, or time outside in every round.
        package var fails: Bool { held && (!countsWithin || timeVerdict == .outside) }
    }

    package enum TimeVerdict { case within, outside, unsure }

    /// The unpublished single-thread rows of rounds of data and twin runs, strategy by strategy:
    /// each side's median ns/event over the rounds, and its counts (the same in every round).
    package static func compare(_ rounds: [(data: RunReport, twin: RunReport)]) -> [Row] {
        let plain = { (r: StrategyResult) in r.key.threads == 1 && r.key.publication == .none }
        func row(_ report: RunReport, _ strategy: String) -> StrategyResult? { report.results.first { plain($0) && $0.strategy == strategy } }
        func figures(_ reports: [RunReport], _ strategy: String) -> (Double, Double, Double)? {
            let rows = reports.compactMap { row($0, strategy) }
            guard let first = rows.first else { return nil }
            let ns = rows.map(\.timing.nsPerEvent.mean).sorted()
            let median = ns.count % 2 == 1 ? ns[ns.count / 2] : (ns[ns.count / 2 - 1] + ns[ns.count / 2]) / 2
            return (median, first.matches.candidatesPerEvent, first.matches.matchesPerEvent)
        }
        guard let first = rounds.first else { return [] }
        return first.data.results.filter(plain).compactMap { d in
            guard let data = figures(rounds.map(\.data), d.strategy), let twin = figures(rounds.map(\.twin), d.strategy) else { return nil }
            let ratios = rounds.compactMap { round -> Double? in
                guard let a = row(round.data, d.strategy), let b = row(round.twin, d.strategy) else { return nil }
                return Row.ratio(b.timing.nsPerEvent.mean, a.timing.nsPerEvent.mean)
            }
            return Row(strategy: d.strategy, data: data, twin: twin, roundRatios: ratios)
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
            let time = switch row.timeVerdict { case .within: "within"; case .outside: "time outside"; case .unsure: "time unsure" }
            let verdict = !row.held ? "(not held)" : !row.countsWithin ? "OUTSIDE" : time
            cells.append([row.strategy, n(row.data.ns), n(row.twin.ns), r(row.nsRatio), n(row.data.candidates), n(row.twin.candidates),
                          r(row.candidateRatio), n(row.data.matches), n(row.twin.matches), r(row.matchRatio), verdict])
        }
        let widths = header.indices.map { c in cells.map { $0[c].count }.max()! }
        for row in cells {
            lines.append(row.enumerated().map { c, s in c == 0 ? s.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[c] - s.count) + s }.joined(separator: "  "))
        }
        lines += advice(rows)
        return lines.joined(separator: "\n")
    }

    /// What to change for each target a held strategy missed (none when all were met).
    static func advice(_ rows: [Row]) -> [String] {
        func r(_ v: Double) -> String { v.isFinite ? String(format: "%.2f×", v) : "∞" }
        var out: [String] = []
        for row in rows where row.held {
            if !row.countsWithin {
                out.append("\(row.strategy): candidates \(r(row.candidateRatio)), matches \(r(row.matchRatio)) of the data's: fit on more of the log "
                    + "(drop --events, or a longer log: rare names and keys are fitted from few events), and see docs/harness.md, "
                    + "\"Limits\", for shapes a spec does not hold (correlations across conditions, key types tied to event names)")
            } else if row.timeVerdict == .unsure {
                let spread = row.roundRatios.map(r).joined(separator: ", ")
                out.append("\(row.strategy): ns/event \(r(row.nsRatio)) of the data's, but the rounds disagree (\(spread)): the host's noise, "
                    + "not the twin's, until three or more rounds all miss on one side; rerun with --repetitions 5 on a quieter host")
            } else if row.timeVerdict == .outside {
                out.append("\(row.strategy): ns/event \(r(row.nsRatio)) of the data's in every round (counts within): the data's cost depends on "
                    + "what the spec does not hold (string lengths, regex patterns, the order of events); compare strategies on the data itself")
            }
        }
        return out.isEmpty ? [] : ["what to change:"] + out.map { "  " + $0 }
    }
}
