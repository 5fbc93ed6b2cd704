import ArgumentParser
import Foundation
import Harness
import TriggerKit

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page of results files and sweeps (tables, charts, gate, trend).",
        discussion: """
            Give results files (`bench run --json`) and sweep files (`bench sweep --json`). The page has, per run, the \
            header and settings, the table, a bar chart with interval whiskers, single-event percentiles, memory and \
            publication rows; per sweep, its table, fits and log–log charts (the files of a sweep's shards, \
            bench sweep --shard I/N, are merged into one); with --baseline, the gate's comparison \
            of the first results file; with several results of one workload, a trend chart. Inline CSS and SVG only: \
            no scripts, no network; light and dark themes follow the reader's setting. \
            scripts/report-screenshot renders it to a PNG with headless Chromium.
            """)

    @Option(help: "Where to write the page.")
    var html: String

    @Option(help: "A baseline results file: the first results file is judged against it as `bench check` would (wall clock informational).")
    var baseline: String?

    @Option(help: "Fields the baseline comparison may find different, as `bench check --allow-difference` takes them (e.g. cpu,kernel,reference_events).")
    var allowDifference = ""

    @Argument(help: "Results (trigger-bench-results/1 to /3) and sweep (trigger-bench-sweep/1) files.")
    var files: [String] = []

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one results or sweep file") }
    }

    func run() throws {
        try OutputPaths.refuseOverwriting(outputs: [("--html", html)], inputs: files.map { ("results", $0) } + [("--baseline", baseline)])
        let output = try AtomicFile(path: html)
        let inputs = try HTMLReport.mergingShards(try files.map(HTMLReport.load))
        let base = try baseline.map { (report: try RunReport.load($0), file: $0) }
        if base != nil, !inputs.contains(where: { if case .run = $0 { return true } else { return false } }) {
            throw ValidationError("--baseline compares a results file, and only sweep files were given")
        }
        var report = HTMLReport(inputs: inputs, baseline: base)
        if let baseline {
            // A results file given also as the baseline would be judged against itself ("no regression").
            let digest = { (path: String) in SHA256.hex(of: try BoundedFile.read(path, limit: RunReport.maxFileBytes)) }
            let baseDigest = try digest(baseline)
            for case .run(_, let file) in inputs where try digest(file) == baseDigest { report.sameAsBaseline.insert(file) }
            guard let judged = report.judged else {
                throw ValidationError("--baseline \(baseline) is the only results file given (\(report.sameAsBaseline.sorted().joined(separator: ", ")) holds the same bytes): it would be judged against itself; give a current results file too")
            }
            if !report.sameAsBaseline.isEmpty {
                TextOutput.standardError("bench: note: \(report.sameAsBaseline.sorted().map(PrintableText.escaped).joined(separator: ", ")) is the baseline itself; the baseline section judges \(PrintableText.escaped(judged.file))")
            }
        }
        report.gateOptions.allowedDifferences = try VerdictOptions.allowedDifferences(allowDifference)
        try output.commit(with: Data(report.html().utf8))
        TextOutput.standardError("bench: wrote \(PrintableText.escaped(html)): " + report.sections.map { PrintableText.escaped($0.title) }.joined(separator: ", "))
    }
}
