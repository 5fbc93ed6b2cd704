import TriggerKit
import Foundation

/// Terminal table, Markdown and SVG renderings of a `RunReport`.
extension RunReport {
    static let columns = ["strategy", "pub", "thr", "events", "loops", "mean ns ±95%", "ev p50", "ev p99", "ev p99.9", "ev max",
                          "cold p50", "cold p90", "Mev/s", "cpu %", "alloc/ev", "B/ev", "matcher KB", "instr/ev", "match/ev", "cand/ev", "×ref", "×floor",
                          "flags", "checksum"]

    /// Table cells; strings read from a results file are escaped (see `PrintableText`).
    func rows() -> [[String]] {
        results.map { r in
            let mean = Self.ns(r.timing.nsPerEvent.mean) + (r.timing.meanCi95.flatMap { $0.count == 2 ? " ± " + Self.ns(($0[1] - $0[0]) / 2) : nil } ?? "")
            let single = r.latencyNs.map { l in [l.p50, l.p99, l.p999, l.max].map { Self.ns($0, resolution: l.timerResolution) } } ?? ["–", "–", "–", "–"]
            let cold = r.coldLatencyNs.map { l in [l.p50, l.p90].map { Self.ns($0, resolution: l.timerResolution) } } ?? ["–", "–"]
            let flags = (r.passes?.flags ?? []).compactMap { PassFigures.Flag(rawValue: $0)?.letter }.joined()
            return ([r.strategy, r.key.publication.rawValue, String(r.key.threads), String(r.matches.events),
                     r.passes.map { String($0.loops) } ?? "–", mean] + single + cold + [
                String(format: "%.2f", r.timing.eventsPerSecond / 1e6), Self.cpuPercent(r), Self.small(r.memory.allocationsPerEvent), Self.small(r.memory.bytesPerEvent),
                r.memory.matcherBytes.map { String(format: "%.0f", Double($0) / 1024) } ?? "–",
                r.instructionsPerEvent.map { String(format: "%.0f", $0) } ?? "–",
                String(format: "%.3f", r.matches.matchesPerEvent), String(format: "%.1f", r.matches.candidatesPerEvent),
                r.ratios.speedupVsReference.map { String(format: "%.1f×", $0) } ?? "–",
                r.ratios.ratioToFloor.map { String(format: "%.2f×", $0) } ?? "–", flags.isEmpty ? (r.passes == nil ? "–" : "") : flags,
                String(r.matches.checksum.hex.prefix(8))]).map(PrintableText.escaped)
        }
    }

    /// The reader threads' CPU time over their wall time (a shared host's tenants and this process's
    /// other threads take the rest).
    static func cpuPercent(_ r: StrategyResult) -> String {
        let share = r.passes?.cpuShare ?? (r.timing.wallSeconds > 0 ? min(1, r.timing.cpuSeconds / (r.timing.wallSeconds * Double(r.key.threads))) : 0)
        return String(format: "%.0f", share * 100)
    }

    static func ns(_ v: Double) -> String { v >= 100 ? String(format: "%.0f", v) : String(format: "%.1f", v) }

    /// A single-event figure, no finer than the timer that took it: whole steps of `resolution`.
    static func ns(_ v: Double, resolution: Double?) -> String {
        guard let resolution, resolution >= 1 else { return ns(v) }
        return String(format: "%.0f", (v / resolution).rounded() * resolution)
    }
    static func small(_ v: Double) -> String { v == 0 ? "0" : String(format: v < 10 ? "%.2f" : "%.0f", v) }

    var header: String {
        var h = dataHeader ?? "workload \(PrintableText.escaped(workload.name)) (seed \(workload.seed))"
        h += ": \(workload.triggers) triggers, \(workload.events) events · \(build) build · Swift \(environment.swift) · jemalloc \(environment.jemalloc ?? "not linked") · \(environment.cores) cores · \(PrintableText.escaped(environment.cpu))"
        if let run {
            h += "\n" + PrintableText.escaped(run.timestamp + (run.commit.map { " · commit \($0.prefix(12))" + (run.dirty == true ? " (with uncommitted changes)" : "") } ?? "")
                + (run.label.map { " · \($0)" } ?? "") + " · " + Self.count(run.settings.repetitions, "repetition"))
            for warning in run.noise.warnings(cores: environment.cores) { h += "\nwarning: " + warning }
        }
        if let d = workload.data, d.invalidLines > 0, let first = d.firstErrors.first {
            h += "\nwarning: skipped \(Self.count(d.invalidLines, "invalid line")) of \(d.lines) in the event log; the first, line \(first.line): \(first.error) (--strict refuses them)"
        }
        if build != "release" {
            h = "WARNING: debug build — numbers are not representative; run `swift run -c release bench`\n" + h
        }
        return h
    }

    /// For a run over the user's files: which files and their digests.
    var dataHeader: String? {
        guard let d = workload.data else { return nil }
        var h = "corpus \(PrintableText.escaped(d.corpus.path)) (sha256 \(d.corpus.sha256.prefix(12))…), event log \(PrintableText.escaped(d.eventLog.path)) (sha256 \(d.eventLog.sha256.prefix(12))…\(d.eventLogDigest == "lines read" ? " of the lines read" : ""), \(Self.count(d.lines, "line")) read"
        let skipped = [(d.controlLines, "control line"), (d.blankLines ?? 0, "blank line")].filter { $0.0 > 0 }
        if !skipped.isEmpty { h += ", " + skipped.map { Self.count($0.0, $0.1) }.joined(separator: " and ") + " skipped" }
        return h + ")"
    }

    /// "1 line", "2 lines".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The columns and cells shown: a column no row has a figure in (`instr/ev` without
    /// `--instructions`, `×ref` without `reference`) is left out.
    func shownTable() -> (columns: [String], rows: [[String]]) {
        let cells = rows()
        let kept = Self.columns.indices.filter { c in c == 0 || cells.contains { $0[c] != "–" } }
        return (kept.map { Self.columns[$0] }, cells.map { row in kept.map { row[$0] } })
    }

    /// An aligned table for the terminal; numbers right-aligned.
    package func table() -> String {
        let (columns, cells) = shownTable()
        let all = [columns] + cells
        let widths = columns.indices.map { c in all.map { $0[c].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 || c == 1 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var out = [header, line(columns), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
        out += cells.map(line)
        for r in results {
            if let n = r.publishing?.publications, let before = r.publishing?.heapBytesBeforePublishing, let after = r.publishing?.heapBytesAfterPublishing {
                let made = r.publishing?.deltaTriggers.map { k in
                    String(format: "%d deltas of %d triggers published (%.1f µs of writer CPU each, %d of them full rebuilds%@)",
                           n, k, (r.publishing?.rebuildCpuMsPerPublication ?? 0) * 1000, r.publishing?.fullRebuilds ?? 0,
                           r.publishing?.redirected.map { ", \($0) redirected" } ?? "")
                } ?? String(format: "%d rebuilt sets published (%.3f ms to build each, %.3f ms of writer CPU)", n, r.publishing?.rebuildMsPerPublication ?? 0, r.publishing?.rebuildCpuMsPerPublication ?? 0)
                out.append(String(format: "%@ %@ ×%d: %@; %@heap %.2f MB before the writer, %.2f MB after (Δ %+.3f MB: what replaced sets did not give back)",
                                  r.strategy, r.key.publication.rawValue, r.key.threads, made, throughputKept(r), Double(before) / 1e6, Double(after) / 1e6, Double(after - before) / 1e6))
            }
        }
        out += hostShareLines()
        out += repetitionSpreadLines()
        out += passLines()
        out.append(legend)
        return out.joined(separator: "\n")
    }

    /// "readers kept 96.4 % of the unpublished row's events/s; " for a publication row whose strategy
    /// and thread count also ran unpublished in this run (empty otherwise).
    func throughputKept(_ r: StrategyResult) -> String {
        guard let plain = results.first(where: { $0.strategy == r.strategy && $0.key.threads == r.key.threads && $0.key.publication == .none }),
              plain.timing.eventsPerSecond > 0 else { return "" }
        return String(format: "readers kept %.1f %% of the unpublished row's events/s; ", r.timing.eventsPerSecond / plain.timing.eventsPerSecond * 100)
    }

    /// A plugin row's matcher KB and build are its own code's; what the host did for it is said apart.
    func hostShareLines() -> [String] {
        var seen = Set<String>()
        return results.compactMap { r in
            guard let seconds = r.memory.hostBuildSeconds, let bytes = r.memory.hostBytes, seen.insert(r.strategy).inserted else { return nil }
            return "\(r.strategy): its build took \(String(format: "%.3f", r.memory.buildSeconds * 1000)) ms and holds \(Self.bytes(r.memory.matcherBytes ?? 0)); "
                + "the host's share apart (the corpus flattened for the ABI): \(String(format: "%.3f", seconds * 1000)) ms, \(Self.bytes(bytes))"
        }
    }

    static func bytes(_ n: Int) -> String { abs(n) < 10_240 ? "\(n) bytes" : String(format: "%.0f KB", Double(n) / 1024) }

    /// How far apart each row's repetitions were (slowest over fastest mean ns/event): on a shared host,
    /// the noise a comparison with another run would carry.
    package var repetitionSpreads: [(label: String, fastest: Double, slowest: Double)] {
        results.compactMap { r in r.timing.repetitionRange.map { (r.key.label, $0.fastest, $0.slowest) } }
    }

    func repetitionSpreadLines() -> [String] {
        let spreads = repetitionSpreads
        guard !spreads.isEmpty else { return [] }
        var lines = ["repetitions, fastest–slowest mean ns/event: " + spreads.map {
            "\($0.label) \(Self.ns($0.fastest))–\(Self.ns($0.slowest)) (+\(String(format: "%.0f", ($0.slowest / $0.fastest - 1) * 100)) %)"
        }.joined(separator: ", ")]
        if let note = noiseNote() { lines.append(note) }
        return lines
    }

    /// A note only where the host's noise changes a conclusion: two rows of one configuration whose
    /// means differ by less than their repetitions spread, so that their order in this run is noise.
    /// A row whose repetitions spread by more than its own time (one outlier, a paused machine) is named
    /// as unstable instead: comparing it with anything says nothing.
    func noiseNote() -> String? {
        func spread(_ r: StrategyResult) -> Double? { r.timing.repetitionRange.map { $0.slowest / $0.fastest - 1 } }
        let timed = results.filter { spread($0) != nil }
        if let wild = timed.filter({ spread($0)! > Self.unstableSpread }).max(by: { spread($0)! < spread($1)! }) {
            return String(format: "note: %@'s repetitions were unstable (the slowest %.0f %% above the fastest): its mean is not to be trusted in this run; rerun on a quieter host, or with more --repetitions.",
                          wild.key.label, spread(wild)! * 100)
        }
        let groups = Dictionary(grouping: timed, by: { "\($0.key.publication.rawValue) \($0.key.threads)" })
        var closest: (a: StrategyResult, b: StrategyResult, gap: Double, spread: Double)?
        for group in groups.values {
            let sorted = group.sorted { $0.timing.nsPerEvent.mean < $1.timing.nsPerEvent.mean }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                let gap = b.timing.nsPerEvent.mean / a.timing.nsPerEvent.mean - 1
                let noise = max(spread(a)!, spread(b)!)
                if gap < noise, closest.map({ gap / noise < $0.gap / $0.spread }) ?? true { closest = (a, b, gap, noise) }
            }
        }
        guard let c = closest else { return nil }
        let pairing = results.contains { $0.strategy == FloorMatcher.strategyName } ? " (×floor pairs each row with floor's same repetition and is steadier)" : ""
        return String(format: "note: %@ and %@ differ by %.0f %%, less than their repetitions' spread (%.0f %%): their order in this run is the host's noise%@. For a verdict, rerun with more --repetitions on a quieter host, or compare builds with bench ab.",
                      c.a.key.label, c.b.key.label, c.gap * 100, c.spread * 100, pairing)
    }

    /// A spread of repetitions past which a row's mean is noise itself: the slowest over twice the fastest.
    static let unstableSpread = 1.0

    package func markdown() -> String {
        var out = ["**\(header.replacingOccurrences(of: "\n", with: "**\n\n**"))**", ""]
        let (columns, cells) = shownTable()
        out.append("| " + columns.joined(separator: " | ") + " |")
        out.append("|" + columns.indices.map { $0 < 2 ? "---" : "---:" }.joined(separator: "|") + "|")
        out += cells.map { "| " + $0.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |" }
        out += [""] + passLines().flatMap { [$0, ""] } + [legend]
        return out.joined(separator: "\n") + "\n"
    }

    /// A horizontal bar chart of mean ns/event per result row (log scale), with a whisker from p50 to
    /// p99 of single events (the mean's interval for rows without single-event timings).
    package func svg() -> String { BarChart(report: self, whisker: .percentiles).svg(standalone: true) }
}
