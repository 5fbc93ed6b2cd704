import ArgumentParser
import Foundation
import Harness

/// Where `bench run` writes its results besides the table on standard output.
struct RunOutputs: ParsableArguments {
    @Option(help: "Write results as JSON (schema trigger-bench-results/3).")
    var json: String?

    @Option(help: "Write results as a Markdown table.")
    var markdown: String?

    @Option(help: "Write an SVG bar chart of ns/event with p50–p99 whiskers.")
    var svg: String?

    @Option(help: "Write results as CSV, one line per row.")
    var csv: String?

    var paths: [(option: String, path: String?)] { [("--json", json), ("--markdown", markdown), ("--svg", svg), ("--csv", csv)] }

    /// The output files, opened (each written in full or not at all when committed).
    struct Opened {
        let json, markdown, svg, csv: AtomicFile?
        /// The paths given, in the order above (nil where none).
        let paths: [String?]

        /// Writes each file and says so, one line per file.
        func commit(_ report: RunReport) throws {
            try json?.commit(with: report.json())
            try markdown?.commit(with: Data(report.markdown().utf8))
            try svg?.commit(with: Data(report.svg().utf8))
            try csv?.commit(with: Data(report.csv().utf8))
            // On standard error, as `bench generate` says it: standard output is the table.
            for path in paths.compactMap({ $0 }) { TextOutput.standardError("bench: wrote \(PrintableText.escaped(path))") }
        }
    }

    func open() throws -> Opened {
        Opened(json: try json.map(AtomicFile.init(path:)), markdown: try markdown.map(AtomicFile.init(path:)),
               svg: try svg.map(AtomicFile.init(path:)), csv: try csv.map(AtomicFile.init(path:)),
               paths: [json, markdown, svg, csv])
    }
}
