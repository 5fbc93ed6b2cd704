import Foundation
import TriggerKit
import Workload

/// `bench fit`: a workload spec fitted to someone's corpus and event log, and how closely runs of
/// its twin cost what runs of the data cost (docs/harness.md, "Your data's twin").
public enum TwinFit {
    /// The targets a twin is held to for `compiled` and `predicate-index`.
    public static let countTolerance = 0.20
    public static let timeTolerance = 0.25
    public static let heldStrategies = ["compiled", "predicate-index"]

    /// One strategy's figures on the data and on its twin.
    public struct Row: Sendable {
        public var strategy: String
        public var data: (ns: Double, candidates: Double, matches: Double)
        public var twin: (ns: Double, candidates: Double, matches: Double)

        static func ratio(_ twin: Double, _ data: Double) -> Double {
            data == 0 ? (twin == 0 ? 1 : .infinity) : twin / data
        }
        public var nsRatio: Double { Self.ratio(twin.ns, data.ns) }
        public var candidateRatio: Double { Self.ratio(twin.candidates, data.candidates) }
        public var matchRatio: Double { Self.ratio(twin.matches, data.matches) }

        public var held: Bool { TwinFit.heldStrategies.contains(strategy) }
        public var countsWithin: Bool {
            abs(candidateRatio - 1) <= TwinFit.countTolerance && abs(matchRatio - 1) <= TwinFit.countTolerance
        }
        public var timeWithin: Bool { abs(nsRatio - 1) <= TwinFit.timeTolerance }
    }

    /// The unpublished single-thread rows of both runs, strategy by strategy.
    public static func compare(data: RunReport, twin: RunReport) -> [Row] {
        func figures(_ r: StrategyResult) -> (Double, Double, Double) {
            let samples = r.timing.nsPerEventSamples ?? []
            let ns = samples.isEmpty ? r.timing.nsPerEvent.mean : samples.sorted()[samples.count / 2]
            return (ns, r.matches.candidatesPerEvent, r.matches.matchesPerEvent)
        }
        let plain = { (r: StrategyResult) in r.key.threads == 1 && r.key.publication == .none }
        return data.results.filter(plain).compactMap { d in
            guard let t = twin.results.first(where: { plain($0) && $0.strategy == d.strategy }) else { return nil }
            return Row(strategy: d.strategy, data: figures(d), twin: figures(t))
        }
    }

    /// The fidelity table `bench fit --check` prints.
    public static func table(_ rows: [Row], events: Int) -> String {
        func n(_ v: Double) -> String { v >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v) }
        func r(_ v: Double) -> String { v.isFinite ? String(format: "%.2f×", v) : "∞" }
        var lines = ["fidelity at \(events) events each: the twin's figure ÷ the data's (targets for \(heldStrategies.joined(separator: " and ")): "
            + "cand/ev and match/ev within ±\(Int(countTolerance * 100)) %, ns/event within ±\(Int(timeTolerance * 100)) %)"]
        let header = ["strategy", "ns/ev data", "twin", "ratio", "cand/ev data", "twin", "ratio", "match/ev data", "twin", "ratio", "verdict"]
        var cells = [header]
        for row in rows {
            let verdict = !row.held ? "(not held)" : row.countsWithin && row.timeWithin ? "within" : "OUTSIDE"
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
