import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Generate (or load) a workload and replay it through the chosen strategies; print a comparison table.",
        discussion: """
            Every strategy replays the same struct-of-arrays event buffers. `reference` replays only the first \
            --reference-events events; every other strategy is checked against it on that prefix, and against each \
            other on the full run. A checksum disagreement exits 1.
            """)

    @OptionGroup var options: RunOptions

    @Option(help: "Write results as JSON (schema trigger-bench-results/2).")
    var json: String?

    @Option(help: "Write results as a Markdown table.")
    var markdown: String?

    @Option(help: "Write an SVG bar chart of ns/event with p50–p99 whiskers.")
    var svg: String?

    @Option(help: "Write results as CSV, one line per row.")
    var csv: String?

    @Flag(help: "Also count instructions/event of each strategy's 1-thread loop under valgrind --tool=callgrind (adds a minute or more).")
    var instructions = false

    func run() throws {
        var report: RunReport
        try Limits.refuseOverwriting(
            outputs: [("--json", json), ("--markdown", markdown), ("--svg", svg), ("--csv", csv)],
            inputs: [("--corpus", options.input.corpus), ("--event-log", options.input.eventLog), ("--workload", options.input.workloadFile)]
                + options.plugins.map { ("--plugin", $0) })
        // Opened before the run, so an unwritable path fails now, not after minutes of measuring.
        let jsonFile = try json.map(AtomicFile.init(path:))
        let markdownFile = try markdown.map(AtomicFile.init(path:))
        let svgFile = try svg.map(AtomicFile.init(path:))
        let csvFile = try csv.map(AtomicFile.init(path:))
        do {
            let configuration = try options.makeConfiguration()
            report = try Runner(configuration).run()
            if instructions {
                let progress = ProgressLine(enabled: true)
                let counts = try InstructionCounter.count(
                    input: options.input.arguments(), eventsOverride: options.events, strategies: configuration.strategies,
                    events: report.workload.events, referenceEvents: configuration.referenceEvents, progress: { progress.note($0) })
                progress.note("")
                try report.merge(counts)
            }
        } catch let mismatch as ChecksumMismatch {
            TextOutput.standardError("bench: strategies disagree: \(mismatch)")
            throw ExitCode(Exit.regression)
        }
        try TextOutput.printLine(report.table())
        try jsonFile?.commit(with: report.json())
        try markdownFile?.commit(with: Data(report.markdown().utf8))
        try svgFile?.commit(with: Data(report.svg().utf8))
        try csvFile?.commit(with: Data(report.csv().utf8))
    }
}
