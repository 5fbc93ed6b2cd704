import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct FlameGraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flamegraph",
        abstract: "Fold `perf script` output into stacks and draw a flame graph SVG (used by scripts/profile).")

    @Option(help: "`perf script` output (demangled), or '-' for standard input.")
    var perfScript: String?

    @Option(help: "Already folded stacks (`frame;frame count` lines) instead of --perf-script.")
    var folded: String?

    @Option(help: "Write the folded stacks here.")
    var foldedOut: String?

    @Option(help: "Write the flame graph SVG here.")
    var svg: String?

    @Option(help: "The graph's title.")
    var title = "TriggerBench CPU profile"

    func run() throws {
        try OutputPaths.refuseOverwriting(outputs: [("--folded-out", foldedOut), ("--svg", svg)],
                                     inputs: [("--perf-script", perfScript), ("--folded", folded)])
        let stacks: [FlameGraph.Stack]
        switch (perfScript, folded) {
        case (let p?, nil):
            let data = p == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: p)
            guard let data else { throw InputError(file: p, path: "", reason: "cannot read the perf script output") }
            stacks = FlameGraph.fold(perfScript: try FlameGraph.checkText(data, file: p))
        case (nil, let f?):
            guard let data = FileManager.default.contents(atPath: f) else { throw InputError(file: f, path: "", reason: "cannot read the folded stacks") }
            stacks = try FlameGraph.parseFolded(FlameGraph.checkText(data, file: f), file: f)
        default:
            throw ValidationError("give exactly one of --perf-script and --folded")
        }
        guard !stacks.isEmpty else { throw InputError(file: perfScript ?? folded ?? "-", path: "", reason: "no samples found") }
        if let foldedOut { try AtomicFile.write(Data(FlameGraph.foldedText(stacks).utf8), to: foldedOut) }
        if let svg { try AtomicFile.write(Data(FlameGraph.svg(stacks, title: title).utf8), to: svg) }
        if foldedOut == nil && svg == nil { try TextOutput.printText(FlameGraph.foldedText(stacks)) }
    }
}
