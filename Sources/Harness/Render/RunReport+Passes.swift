import Foundation

/// The lines under a run's table that say how its rows were timed: the legend, the passes' warm-up and
/// length, the timer, outliers and the flags a row earned.
extension RunReport {
    /// What the columns are, under the table.
    package var legend: String {
        let latency = results.compactMap(\.latencyNs).first
        let cold = results.compactMap(\.coldLatencyNs).first
        var text = "mean ns: wall-clock time per event of the timed passes (with several reader threads, the run's, not a thread's), ± half the bootstrap 95 % interval of the repetitions' means (with 3 repetitions that is their range; 5 or more give a real interval); "
        text += "loops: times each pass replayed the row's events; "
        text += "ev p50…max: single events timed alone, warm" + (latency.map { l in " (\(Self.timerText(l)), 1-thread unpublished rows)" } ?? "") + "; "
        if let cold {
            text += "cold p50/p90: \(cold.samples) single events spread over the log, each timed after reading \(cold.evictedBytes.map { Self.megabytes($0) } ?? "a buffer larger than the last-level cache") to evict the caches (an event arriving with the caches full of other work); "
        }
        text += "cpu %: the readers' CPU time over their wall time; alloc/ev and B/ev from a separate untimed jemalloc pass; matcher KB: what the built matcher holds; instr/ev = callgrind instructions of the 1-thread loop (--instructions); "
        text += "×ref = speed-up over reference, ×floor = cost relative to floor (with repetitions: the median of the ratios within each repetition)."
        return text
    }

    static func timerText(_ l: EventLatency) -> String {
        "\(l.timer)" + (l.timerResolution.map { ", which steps by \(resolution($0)) ns" } ?? "") + ", \(ns(l.timerOverhead)) ns of timer overhead subtracted"
    }

    /// A timer step as the table and the docs write it: two significant digits.
    static func resolution(_ v: Double) -> String { v >= 10 ? String(format: "%.0f", v) : String(format: "%.2g", v) }

    static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }

    /// How the passes were made, the outliers among their batches, and each flag with its rows.
    package func passLines() -> [String] {
        let timed = results.filter { $0.passes != nil }
        guard !timed.isEmpty else { return [] }
        var lines: [String] = []
        if let st = run?.settings, let pass = st.passSeconds, let warm = st.warmupSeconds {
            let warmUp = warm > 0 ? "came after \(Self.seconds(warm)) of its own row's untimed warm-up (--warmup-seconds)" : "had no warm-up before it (--warmup-seconds 0)"
            let length = pass > 0 ? "replayed the row's events `loops` times to last about \(Self.seconds(pass)), or once when one replay takes longer (--pass-seconds)" : "replayed the row's events once (--pass-seconds 0)"
            lines.append("passes: each \(warmUp) and \(length)"
                         + (results.compactMap(\.latencyNs).first.map { "; timer \(Self.timerText($0)), measured once at the start of the run" } ?? ""))
        }
        lines.append("outliers among the timed batches (Tukey's fences; mild beyond 1.5 IQR, severe beyond 3): " + timed.map { r in
            let o = r.passes!.outliers
            let share = { (n: Int) in Double(n) * 100 / Double(max(o.samples, 1)) }
            return "\(r.key.label) " + (o.total == 0 ? "none" : String(format: "%.1f %% mild, %.1f %% severe slow, %.1f %% severe fast", share(o.total - o.severe), share(o.highSevere), share(o.lowSevere)))
                + " of \(o.samples)"
        }.joined(separator: "; "))
        for flag in PassFigures.Flag.allCases {
            let flagged = timed.filter { $0.passes!.flags.contains(flag.rawValue) }
            guard !flagged.isEmpty else { continue }
            lines.append("\(flag.letter) = \(flag.meaning): " + flagged.map { r in "\(r.key.label)" + detail(flag, r) }.joined(separator: ", "))
        }
        return lines
    }

    func detail(_ flag: PassFigures.Flag, _ r: StrategyResult) -> String {
        let p = r.passes!
        switch flag {
        case .preempted:
            return String(format: " (CPU %.1f %% of wall, %.0f involuntary context switches per pass)", p.cpuShare * 100, p.involuntarySwitchesPerPass)
        case .outliers:
            return String(format: " (%.1f %% severe slow)", Double(p.outliers.highSevere) * 100 / Double(max(p.outliers.samples, 1)))
        case .short:
            return String(format: " (%.2f ms)", (p.seconds.min() ?? 0) * 1000)
        case .wide:
            guard let ci = r.timing.meanCi95, ci.count == 2, r.timing.nsPerEvent.mean > 0 else { return "" }
            return String(format: " (±%.0f %%)", (ci[1] - ci[0]) / 2 / r.timing.nsPerEvent.mean * 100)
        }
    }

    static func seconds(_ s: Double) -> String { s < 1 ? String(format: "%g ms", s * 1000) : String(format: "%g s", s) }
}
