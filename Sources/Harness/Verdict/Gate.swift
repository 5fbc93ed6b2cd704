import Foundation

/// The regression gate of `bench check` (docs/measuring.md, "The gate"): exact on
/// checksums and allocations per event, a tolerance on callgrind instructions per event, and a
/// statistical test plus a minimum effect on wall clock.
package enum Gate {
    /// The smallest wall-clock slowdown that can fail, in `bench check` (median over repetitions) and
    /// `bench ab --fail-if-slower` (paired ratio) alike: one figure for one question.
    package static let defaultMinimumEffect = 0.05

    /// How the wall-clock tier counts.
    package enum WallClock: String, Sendable, CaseIterable {
        /// A significant slowdown of at least the minimum effect fails the gate.
        case enforce
        /// Reported, never failing (shared CI machines are too noisy to gate on time).
        case informational
        case off
    }

    package struct Options: Sendable {
        package var wallClock = WallClock.enforce
        /// Relative increase of instructions per event that fails (0.02 = 2 %).
        package var instructionTolerance = 0.02
        /// Relative slowdown of the median that must be exceeded (0.05 = 5 %) …
        package var minimumEffect = Gate.defaultMinimumEffect
        /// … and the Mann–Whitney p-value that must be undercut.
        package var alpha = 0.01
        /// Environment fields allowed to differ (`all` for any).
        package var allowedDifferences: Set<String> = []
        package init() {}
    }

    /// What one comparison concluded.
    package enum Verdict: String, Sendable {
        case unchanged, improved, regressed, informational, new
    }

    /// One metric of one result row, baseline against current.
    package struct Finding: Sendable {
        package var row: String
        package var metric: String
        package var baseline: String
        package var current: String
        package var change: String
        package var verdict: Verdict
        package var note: String

        /// The verdict in the reader's words where "unchanged" would claim more than was shown: a
        /// wall-clock change the test did not show is "not significant", one below the minimum effect
        /// says so, an instruction count within its tolerance "within tolerance" (set by the tier).
        package var shown: String? = nil

        package var shownVerdict: String { verdict == .unchanged ? shown ?? verdict.rawValue : verdict.rawValue }
    }

    /// Everything `bench check` prints.
    package struct Report: Sendable {
        package var findings: [Finding] = []
        package var notes: [String] = []
        package var options: Options

        package var regressions: [Finding] { findings.filter { $0.verdict == .regressed } }

        /// A Markdown table of what moved (every row that is not `unchanged`), then a one-line verdict.
        package func markdown() -> String {
            let moved = findings.filter { $0.verdict != .unchanged || $0.metric.hasPrefix("ns/event") }
            var out: [String] = notes.map { "> \(PrintableText.escaped($0))" }
            if !out.isEmpty { out.append("") }
            if moved.isEmpty {
                out.append("Nothing moved: \(findings.count) comparisons unchanged.")
            } else {
                out.append("| result | metric | baseline | current | change | verdict | why |")
                out.append("|---|---|---:|---:|---:|---|---|")
                for f in moved {
                    let verdict = f.verdict == .regressed ? "**REGRESSED**" : f.shownVerdict
                    out.append("| \(PrintableText.markdownCell(f.row)) | \(f.metric) | \(f.baseline) | \(f.current) | \(f.change) | \(verdict) | \(f.note) |")
                }
            }
            out.append("")
            let tiers = "checksums and allocations/event exact · instructions/event ±\(Self.percent(options.instructionTolerance)) · wall clock: Mann–Whitney p < \(options.alpha) and ≥ \(Self.percent(options.minimumEffect)) slower (\(options.wallClock.rawValue))"
            out.append(regressions.isEmpty
                ? "**gate: pass** — \(findings.count) comparisons, no regression (\(tiers))"
                : "**gate: FAIL** — \(regressions.count) regression(s) in \(findings.count) comparisons (\(tiers))")
            return out.joined(separator: "\n") + "\n"
        }

        static func percent(_ v: Double) -> String { String(format: "%g %%", v * 100) }
    }

    /// The results cannot be compared (different workloads, or unlike environments not allowed).
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    package static func compare(baseline: RunReport, current: RunReport, options: Options) throws -> Report {
        var report = Report(options: options)
        try checkComparable(baseline, current, options: options, notes: &report.notes)
        let currentRows = Dictionary(current.results.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let baselineKeys = Set(baseline.results.map(\.key))
        for base in baseline.results {
            guard let cur = currentRows[base.key] else {
                report.findings.append(Finding(row: "\(base.key)", metric: "result", baseline: "present", current: "missing", change: "",
                                               verdict: .regressed, note: "the current run lacks this strategy/publication/threads row"))
                continue
            }
            report.findings += compareRow("\(base.key)", base, cur, options: options)
        }
        for cur in current.results where !baselineKeys.contains(cur.key) {
            report.findings.append(Finding(row: "\(cur.key)", metric: "result", baseline: "missing", current: "present", change: "",
                                           verdict: .new, note: "not in the baseline; update it to gate this row"))
        }
        return report
    }

    /// Refuses results that cannot be judged whatever they are compared with: no rows, or one row
    /// twice. `bench gate` asks it of the baseline before measuring.
    package static func requireJudgeable(_ report: RunReport, side: String) throws {
        if report.results.isEmpty {
            throw Refusal(description: "the \(side) results are empty: nothing to compare; rerun bench run with at least one strategy")
        }
        // Only one of two same-named rows would be judged: a file bench wrote never has them.
        var keys = Set<RowKey>()
        if let twice = report.results.first(where: { !keys.insert($0.key).inserted }) {
            throw Refusal(description: "the \(side) results hold row \(twice.key) twice; a results file has one row per strategy, publication and threads (was it edited?)")
        }
    }

    static func checkComparable(_ b: RunReport, _ c: RunReport, options: Options, notes: inout [String]) throws {
        for (side, report) in [("baseline", b), ("current", c)] { try requireJudgeable(report, side: side) }
        // A results file from before the current match digest holds checksums no run of this build can
        // equal: comparing them would call every row's matches changed.
        if b.hasCurrentMatchDigest != c.hasCurrentMatchDigest {
            let old = b.hasCurrentMatchDigest ? ("current", c) : ("baseline", b)
            throw Refusal(description: "the \(old.0) results (\(old.1.schema)) hold checksums of an earlier match digest, which no \(RunReport.schemaName) checksum can equal; record them again with this bench (bench gate --update, or bench run --json)")
        }
        try checkSameWorkload(b.workload, c.workload, notes: &notes)
        let be = b.environment, ce = c.environment
        var fields: [(String, String, String)] = [
            ("build", b.build, c.build), ("swift", be.swift, ce.swift), ("jemalloc", be.jemalloc ?? "none", ce.jemalloc ?? "none"),
            ("malloc_conf", be.mallocConf ?? "none", ce.mallocConf ?? "none"),
        ]
        // The CPU model and core count move wall-clock time, not checksums, allocations or callgrind's
        // instruction counts: they refuse only an enforced wall-clock comparison, and are noted otherwise.
        let machine = [("cpu", be.cpu, ce.cpu), ("cores", String(be.cores), String(ce.cores))]
        if options.wallClock == .enforce {
            fields += machine
        } else {
            for (name, bv, cv) in machine where bv != cv {
                notes.append("\(name) differs (baseline \"\(bv)\", current \"\(cv)\"): wall clock is not enforced, and the exact and instruction tiers do not depend on it")
            }
        }
        // A fresh VM of the same kind boots another kernel build: worth saying, not worth refusing.
        if be.kernel != ce.kernel { notes.append("kernel differs: baseline \"\(be.kernel)\", current \"\(ce.kernel)\"") }
        notePluginBuilds(b, c, notes: &notes)
        try refuseDifferences(fields.map { ($0.0, "\"\($0.1)\"", "\"\($0.2)\"") }, what: "environment",
                              refusal: "results from unlike environments", fix: "rerun on a like machine", options: options, notes: &notes)
        try checkSettings(b, c, options: options, notes: &notes)
    }

    /// Every name `--allow-difference` accepts: each field a refusal can name, and `all`.
    package static let differenceFields: Set<String> =
        Set(["build", "swift", "jemalloc", "malloc_conf", "cpu", "cores", "kernel", "all"] + RunMetadata.Settings.comparedNames)

    /// A plugin whose build changed (another SHA-256 under the same name and options) is what a gate of
    /// that plugin tests: both digests are noted.
    static func notePluginBuilds(_ b: RunReport, _ c: RunReport, notes: inout [String]) {
        let before = Dictionary((b.run?.settings.plugins ?? []).map { ($0.name, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        for p in c.run?.settings.plugins ?? [] {
            if let old = before[p.name], old != p.sha256 {
                notes.append("plugin \(p.name) is another build (sha256 \(old.prefix(12))… in the baseline, \(p.sha256.prefix(12))… now): the change under test")
            }
        }
    }

    /// Notes each differing field that `--allow-difference` names; refuses, naming them all and the
    /// option that would allow them, when any other field differs.
    static func refuseDifferences(_ fields: [(name: String, baseline: String, current: String)], what: String, refusal: String,
                                  fix: String, options: Options, notes: inout [String]) throws {
        var refused: [String] = []
        func shown(_ value: String) -> String { value.isEmpty ? "none" : value }
        for (name, bv, cv) in fields where bv != cv {
            if options.allowedDifferences.contains(name) || options.allowedDifferences.contains("all") {
                notes.append("\(what) differs, allowed by --allow-difference: \(name) baseline \(shown(bv)), current \(shown(cv))")
            } else {
                refused.append("\(name) (baseline \(shown(bv)), current \(shown(cv)))")
            }
        }
        if !refused.isEmpty {
            throw Refusal(description: "refusing to compare \(refusal): \(refused.joined(separator: "; ")); \(fix), or pass --allow-difference \(refused.map { String($0.prefix { $0 != " " }) }.joined(separator: ","))")
        }
    }

    /// Results of different workloads or data measure different things: refused. `bench gate` asks it
    /// before measuring too, of the workload it is about to generate.
    package static func checkSameWorkload(_ bw: RunReport.Workload, _ cw: RunReport.Workload, notes: inout [String]) throws {
        if let difference = RunReport.ReplayedFiles.difference(bw.data, cw.data) {
            throw Refusal(description: "the results replay different data: \(difference); rerun with the baseline's --corpus and --event-log (or its --workload)")
        }
        guard bw.name == cw.name, bw.seed == cw.seed, bw.events == cw.events, bw.triggers == cw.triggers else {
            throw Refusal(description: "the results replay different workloads (baseline \(bw.name) seed \(bw.seed), \(bw.triggers) triggers, \(bw.events) events; current \(cw.name) seed \(cw.seed), \(cw.triggers) triggers, \(cw.events) events); rerun with the baseline's workload")
        }
        if let bs = bw.specSha256, let cs = cw.specSha256, bs != cs {
            throw Refusal(description: "the results replay different workloads: both are \(bw.name) seed \(bw.seed), but their specs differ (sha256 \(bs.prefix(12))… in the baseline, \(cs.prefix(12))… now); rerun with the baseline's spec")
        }
        if (bw.specSha256 == nil) != (cw.specSha256 == nil), bw.data == nil, cw.data == nil {
            notes.append("the \(bw.specSha256 == nil ? "baseline" : "current") results predate workload spec digests: the workloads are compared by name, seed and counts only")
        }
    }

    /// `checkSettings` before measuring: the baseline against the settings this run will record
    /// (`planned`), so a mismatch is refused in a second, not after minutes. A field the run only learns
    /// as it reads its input (`unknown`: the events of a log) is left to the check after it.
    package static func checkPlannedSettings(baseline: RunReport, planned: RunMetadata.Settings, unknown: Set<String>,
                                             options: Options) throws {
        guard let bs = baseline.run?.settings else { return }
        var notes: [String] = []
        try refuseEarlierPasses(bs, planned, options: options)
        try refuseDifferences(zip(bs.compared, planned.compared).filter { !unknown.contains($0.0.name) }.map { ($0.0.name, $0.0.value, $0.1.value) },
                              what: "setting", refusal: "runs made with different settings", fix: "rerun with the baseline's settings",
                              options: options, notes: &notes)
    }

    /// Runs made with different settings (events, repetitions, batch size, …) do not measure the same
    /// thing: refused, naming each field, unless `--allow-difference` names it. Schema-1 files carry no
    /// settings; comparing against one is noted.
    static func checkSettings(_ b: RunReport, _ c: RunReport, options: Options, notes: inout [String]) throws {
        guard let bs = b.run?.settings, let cs = c.run?.settings else {
            notes.append("the \(b.run == nil ? "baseline" : "current") results record no run settings (schema 1): settings not compared")
            return
        }
        try refuseEarlierPasses(bs, cs, options: options)
        try refuseDifferences(zip(bs.compared, cs.compared).map { ($0.0.name, $0.0.value, $0.1.value) }, what: "setting",
                              refusal: "runs made with different settings", fix: "rerun with the baseline's settings", options: options, notes: &notes)
    }

    package static func compareRow(_ row: String, _ b: StrategyResult, _ c: StrategyResult, options: Options) -> [Finding] {
        var out: [Finding] = []
        // Tier 1, exact: the matches themselves.
        let sameMatches = b.matches.checksum == c.matches.checksum
        out.append(Finding(row: row, metric: "checksum", baseline: "\(b.matches.checksum.hex.prefix(8)) (\(b.matches.matches))",
                           current: "\(c.matches.checksum.hex.prefix(8)) (\(c.matches.matches))", change: sameMatches ? "" : "differs",
                           verdict: sameMatches ? .unchanged : .regressed,
                           note: sameMatches ? "" : "the matches changed: a correctness bug, or an intended semantic change that needs a new baseline"))
        // Tier 1, exact: allocations per event (a count of requests, deterministic for a binary and workload).
        let da = c.memory.allocationsPerEvent - b.memory.allocationsPerEvent
        out.append(Finding(row: row, metric: "allocations/event", baseline: fmt(b.memory.allocationsPerEvent), current: fmt(c.memory.allocationsPerEvent),
                           change: abs(da) < 1e-9 ? "" : String(format: "%+.3f", da),
                           verdict: abs(da) < 1e-9 ? .unchanged : (da > 0 ? .regressed : .improved),
                           note: da > 1e-9 ? "the hot path allocates more (exact tier)" : ""))
        // Tier 2: instructions per event under callgrind, within a tolerance.
        if let bi = b.instructionsPerEvent {
            if let ci = c.instructionsPerEvent {
                let rel = ci / bi - 1
                let verdict: Verdict = rel > options.instructionTolerance ? .regressed : (rel < -options.instructionTolerance ? .improved : .unchanged)
                out.append(Finding(row: row, metric: "instructions/event", baseline: fmt(bi), current: fmt(ci), change: pct(rel),
                                   verdict: rel == 0 ? .unchanged : verdict,
                                   note: verdict == .regressed ? "more than \(Report.percent(options.instructionTolerance)) more instructions"
                                       : verdict == .improved ? "more than \(Report.percent(options.instructionTolerance)) fewer instructions: record a new baseline (--update) to keep the gain"
                                       : "within tolerance",
                                   shown: "within tolerance"))
            } else {
                out.append(Finding(row: row, metric: "instructions/event", baseline: fmt(bi), current: "not measured", change: "",
                                   verdict: .regressed, note: "the baseline has instruction counts: run the current with --instructions"))
            }
        }
        // Tier 3: wall clock, statistical with a minimum effect.
        if options.wallClock != .off {
            var wall = compareWallClock(row, b, c, options: options)
            wall.note += flaggedNote(b, c)
            out.append(wall)
        }
        if let cold = compareCold(row, b, c) { out.append(cold) }
        return out
    }

    static func compareWallClock(_ row: String, _ b: StrategyResult, _ c: StrategyResult, options: Options) -> Finding {
        let bs = b.timing.nsPerEventSamples ?? [], cs = c.timing.nsPerEventSamples ?? []
        guard bs.count >= 2, cs.count >= 2, MannWhitney.smallestPossibleP(n1: bs.count, n2: cs.count) < options.alpha else {
            let rel = c.timing.nsPerEvent.mean / b.timing.nsPerEvent.mean - 1
            return Finding(row: row, metric: "ns/event (mean)", baseline: fmt(b.timing.nsPerEvent.mean), current: fmt(c.timing.nsPerEvent.mean),
                           change: pct(rel), verdict: .informational,
                           note: "\(max(bs.count, 1)) vs \(max(cs.count, 1)) samples cannot reach p < \(fmt(options.alpha)): no test possible (record both with --repetitions 5 or more)")
        }
        let bm = Statistics.median(bs), cm = Statistics.median(cs)
        let rel = cm / bm - 1
        let (_, p) = MannWhitney.test(bs, cs)
        let significant = p < options.alpha
        let slower = significant && rel > options.minimumEffect
        let faster = significant && rel < -options.minimumEffect
        var verdict: Verdict = slower ? .regressed : (faster ? .improved : .unchanged)
        var note = String(format: "p = %.3g, %d vs %d samples", p, bs.count, cs.count)
        if options.wallClock == .informational && verdict != .unchanged {
            note += slower ? "; would fail when enforced" : ""
            verdict = .informational
        } else if verdict == .unchanged && abs(rel) > 0 {
            if significant { note += "; below the minimum effect" }  // "not significant" is the verdict's own word
        }
        return Finding(row: row, metric: "ns/event (median)", baseline: fmt(bm), current: fmt(cm), change: pct(rel),
                       verdict: verdict, note: note, shown: significant && rel != 0 ? "below the minimum effect" : "not significant")
    }

    static func fmt(_ v: Double) -> String {
        v == 0 ? "0" : (abs(v) >= 100 ? String(format: "%.0f", v) : String(format: "%.3g", v))
    }

    static func pct(_ v: Double) -> String { String(format: "%+.2f %%", v * 100) }

    /// github-action-benchmark's `customSmallerIsBetter` format: one entry per result row and metric.
    package static func githubBenchmarkJSON(_ report: RunReport) throws -> Data {
        struct Entry: Encodable { var name, unit: String; var value: Double; var range: String?; var extra: String? }
        var entries: [Entry] = []
        for r in report.results {
            let row = "\(report.workload.name) \(r.key)"
            let spread = r.timing.nsPerEventSamples.map { s in String(format: "± %.3g", ((s.max() ?? 0) - (s.min() ?? 0)) / 2) }
            entries.append(Entry(name: "\(row) ns/event", unit: "ns", value: r.timing.nsPerEvent.mean, range: spread,
                                 extra: String(format: "p50 %.3g p99 %.3g", r.timing.nsPerEvent.p50, r.timing.nsPerEvent.p99)))
            entries.append(Entry(name: "\(row) allocations/event", unit: "allocations", value: r.memory.allocationsPerEvent))
            if let i = r.instructionsPerEvent {
                entries.append(Entry(name: "\(row) instructions/event", unit: "instructions", value: i))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(entries)
    }
}
