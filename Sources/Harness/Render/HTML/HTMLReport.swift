import Foundation
import TriggerKit

/// `bench report --html`: one self-contained page (inline CSS and SVG, no scripts, no network) of
/// result files, sweeps, a gate comparison against a baseline and a trend across runs. The markup is
/// also well-formed XML, which the tests check.
package struct HTMLReport {
    package enum Input {
        case run(RunReport, file: String)
        case sweep(Sweep, file: String)
    }

    package var inputs: [Input]
    package var baseline: (report: RunReport, file: String)?
    /// Results files that are the baseline itself (the same bytes): never the run judged against it.
    package var sameAsBaseline: Set<String> = []
    /// How the baseline comparison judges (the wall clock is always informational here).
    package var gateOptions = Gate.Options()

    package init(inputs: [Input], baseline: (report: RunReport, file: String)? = nil) {
        self.inputs = inputs
        self.baseline = baseline
    }

    /// Reads a results file or a sweep file, by its schema.
    package static func load(_ path: String) throws -> Input {
        let bytes = try BoundedFile.read(path, limit: RunReport.maxFileBytes)
        // The schema decides; a file that is not JSON at all gets the results decoder's error.
        if case .string(Sweep.schemaName)? = (try? JSONValue.parse(bytes))?["schema"] {
            return .sweep(try Sweep.decode(bytes, file: path), file: path)
        }
        return .run(try RunReport.decode(bytes, file: path), file: path)
    }

    /// The inputs with the files of each sweep run in shards merged into one sweep, where its first
    /// shard stood (`Sweep.merge` refuses a missing shard, one twice, or shards of two commits).
    package static func mergingShards(_ inputs: [Input]) throws -> [Input] {
        var groups: [String: [(sweep: Sweep, file: String)]] = [:]
        for case .sweep(let s, let f) in inputs where s.isShard {
            groups["\(s.workload)\u{0}\(Sweep.axesText(s.axes))\u{0}\(s.shard!.count)", default: []].append((s, f))
        }
        guard !groups.isEmpty else { return inputs }
        var merged: [String: Input] = [:]
        for (key, shards) in groups {
            merged[key] = .sweep(try Sweep.merge(shards), file: shards.map(\.file).joined(separator: " + "))
        }
        return inputs.compactMap { input in
            guard case .sweep(let s, let f) = input, s.isShard else { return input }
            let key = "\(s.workload)\u{0}\(Sweep.axesText(s.axes))\u{0}\(s.shard!.count)"
            return groups[key]?.first?.file == f ? merged[key] : nil
        }
    }

    var runs: [(report: RunReport, file: String)] {
        inputs.compactMap { if case .run(let r, let f) = $0 { return (r, f) } else { return nil } }
    }

    /// The run the baseline section judges: the first results file that is not the baseline itself.
    package var judged: (report: RunReport, file: String)? {
        runs.first { !sameAsBaseline.contains($0.file) }
    }

    var sweeps: [(sweep: Sweep, file: String)] {
        inputs.compactMap { if case .sweep(let s, let f) = $0 { return (s, f) } else { return nil } }
    }

    /// The section ids and titles, in page order.
    package var sections: [(id: String, title: String)] {
        var out: [(String, String)] = []
        // Named with their file: several runs of one workload are the usual case.
        for (k, run) in runs.enumerated() { out.append(("run-\(k + 1)", "Run: \(run.report.workload.name) (\((run.file as NSString).lastPathComponent))")) }
        for (k, s) in sweeps.enumerated() { out.append(("sweep-\(k + 1)", "Sweep: \(s.sweep.workload)")) }
        if baseline != nil, judged != nil { out.append(("gate", "Against the baseline")) }
        if !trendGroups.isEmpty { out.append(("trend", "Trend")) }
        return out
    }

    package func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>TriggerBench report</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <h1>TriggerBench report</h1>
            <p class="meta">\(Self.escape("\(inputs.count) file\(inputs.count == 1 ? "" : "s") · made \(RunMetadata.timestamp())"))</p>
            <nav><ul>
            """
        for s in sections { page += "<li><a href=\"#\(s.id)\">\(Self.escape(s.title))</a></li>" }
        page += "</ul></nav>\n"
        for (k, run) in runs.enumerated() { page += runSection(run.report, file: run.file, id: "run-\(k + 1)") }
        for (k, s) in sweeps.enumerated() { page += sweepSection(s.sweep, file: s.file, id: "sweep-\(k + 1)") }
        if let baseline, let current = judged { page += gateSection(baseline: baseline, current: current) }
        if !trendGroups.isEmpty { page += trendSection() }
        return page + "</body>\n</html>\n"
    }

    static func escape(_ s: String) -> String { LineChart.escape(s) }

    static let css = """
        :root { color-scheme: light dark; --fg: #1d1f21; --bg: #ffffff; --muted: #5c6370; --line: #d0d4da; --warn: #9a5b00; --bad: #b3261e; --good: #1e7d32; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --bg: #16181c; --muted: #a0a7b4; --line: #3a3f47; --warn: #e0a040; --bad: #ff7a70; --good: #6fcf7a; } }
        body { font-family: Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); margin: 24px auto; max-width: 1240px; padding: 0 16px; line-height: 1.4; }
        h1 { font-size: 24px; } h2 { font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 40px; } h3 { font-size: 16px; margin-top: 24px; }
        .meta { color: var(--muted); } .warning { color: var(--warn); } .regressed { color: var(--bad); font-weight: bold; } .improved { color: var(--good); }
        nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; }
        a { color: inherit; }
        table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
        th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: right; white-space: nowrap; }
        th:first-child, td:first-child { text-align: left; }
        th { font-weight: 600; }
        table.results { font-size: 12px; } table.results th, table.results td { padding: 3px 5px; } table.results th { white-space: normal; vertical-align: bottom; }
        .warning { border-left: 3px solid var(--warn); padding-left: 8px; }
        table.gate td:last-child { white-space: normal; text-align: left; min-width: 240px; }
        @media print { body { max-width: none; margin: 0; } .scroll { overflow: visible; } table.results { font-size: 9px; } }
        .scroll { overflow-x: auto; }
        svg { display: block; max-width: 100%; height: auto; margin: 8px 0; }
        code { font-size: 12px; }
        """
}
