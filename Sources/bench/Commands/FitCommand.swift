import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Fit a workload spec to your corpus and event log: a synthetic twin that costs what your data costs, with none of its strings.",
        discussion: """
            The spec (format trigger-workload/2) holds the shape of the data in numbers only: how often each event \
            name, product and campaign occurs and how many conditions target it, which keys events carry, value \
            distributions, the filter mix and how often each filter held. Names, keys and values become synthetic \
            ones. Use it as any workload: bench run --workload SPEC [--events N], bench sweep --workload SPEC \
            --vary triggers=…. --check replays the data and the twin at the same event count and prints, per \
            strategy, the twin's ns/event, candidates/event and matches/event beside the data's; it exits 1 when \
            compiled or predicate-index is outside the targets (docs/harness.md, "Your data's twin").
            """)

    @Option(help: "Your trigger set (trigger-corpus/1 JSON).")
    var corpus: String

    @Option(help: "Your events (JSONL), as `bench replay` reads them.")
    var eventLog: String

    @Flag(help: "Exit 2 at the first invalid event line instead of counting and skipping it.")
    var strict = false

    @Option(parsing: .unconditional, help: "Fit (and check) only the first N lines of the event log.")
    var events: Int?

    @Option(help: "Where to write the spec (default: standard output).")
    var json: String?

    @Option(help: "The twin's name, recorded in the spec and in results.")
    var name = "twin"

    @Option(parsing: .unconditional, help: "The twin's random seed.")
    var seed: UInt64 = 1

    @Flag(help: "Replay the data and its twin through the strategies and print how close the twin's figures are.")
    var check = false

    @Option(help: "With --check: comma-separated strategies (default: all).", transform: CommaLists.strategies)
    var strategies: [String] = StrategyRegistry.names

    @Option(parsing: .unconditional, help: "With --check: rounds, each replaying the data then the twin once.")
    var repetitions = 3

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        if let events { try Limits.check("--events", events, 1...Limits.maxEvents) }
        try Limits.check("--repetitions", repetitions, 1...1000)
        guard !name.isEmpty, name.utf8.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw ValidationError("--name \(PrintableText.escaped(name)) must be 1 to 64 letters, digits, '-', '_' or '.'")
        }
        guard seed <= UInt64(Int64.max) else { throw ValidationError("--seed must be at most \(Int64.max)") }
        if check, eventLog == "-" { throw ValidationError("--check replays the event log again after fitting; save it to a file first") }
    }

    func run() throws {
        progressOption.apply()
        try OutputPaths.refuseOverwriting(outputs: [("--json", json)], inputs: [("--corpus", corpus), ("--event-log", eventLog)])
        let out = try json.map { try AtomicFile(path: $0) }
        let files = UserFiles(corpusPath: corpus, eventLogPath: eventLog, strict: strict, lineLimit: events)
        let progress = ProgressLine(enabled: true)
        let data = try LoadedInput.load(.files(files), progress: progress)
        guard !data.set.triggers.isEmpty else {
            throw InputError(file: corpus, path: "triggers", reason: "the corpus has no triggers to fit; give at least one")
        }
        guard data.events.count > 0 else {
            throw InputError(file: eventLog, path: "", reason: "no valid event to fit; give a log with at least one")
        }
        progress.note("fitting \(data.set.triggers.count) triggers and \(data.events.count) events")
        let spec: WorkloadSpec
        do {
            spec = try TwinFitter.spec(set: data.set, events: data.events, name: name, seed: seed)
        } catch let error as InputError where error.file == TwinFitter.fittedFile {
            throw InputError(file: "\(corpus) and \(eventLog)", path: error.path,
                             reason: "the data's shape is outside what a spec holds: \(error.reason)")
        }
        progress.note("")
        let text = spec.json.serialized + "\n"
        if let out {
            try out.write(text)
            try out.commit()
        } else {
            try TextOutput.printText(text)
        }
        let shape = spec.shape!
        TextOutput.standardError("fitted \(data.set.triggers.count) triggers and \(data.events.count) events"
            + (json.map { " into \(PrintableText.escaped($0))" } ?? "")
            + ": \(shape.names.count) names (Zipf \(String(format: "%.2f", shape.names.zipf)), KS distance \(String(format: "%.3f", shape.names.fitKS))), "
            + "\(shape.keys.count) keys, \(text.utf8.count) bytes; names, keys and values are synthetic")
        guard check else { return }
        // Rounds alternate data and twin, one timed pass each, so the host's drift over minutes falls
        // on both sides alike; each side's ns/event is the median of its rounds.
        var reports: [(data: RunReport, twin: RunReport)] = []
        for round in 1...repetitions {
            func configuration(_ input: InputSource, _ side: String) throws -> RunConfiguration {
                var c = RunConfiguration(input: input)
                c.strategies = try strategies.map(RunStrategy.builtIn)
                c.repetitions = 1
                c.latencyEvents = 0
                c.coldEvents = 0
                c.showProgress = true
                c.progressPrefix = "round \(round)/\(repetitions), \(side)"
                return c
            }
            let dataReport = try Runner(try configuration(.files(files), "data")).run()
            let twinReport = try Runner(try configuration(.generated(spec), "twin")).run()
            reports.append((dataReport, twinReport))
        }
        let rows = TwinFit.compare(reports)
        let table = TwinFit.table(rows, events: data.events.count)
        // With the spec on standard output, the table goes beside it so the output stays one JSON document.
        if out == nil { TextOutput.standardError(table) } else { try TextOutput.printLine(table) }
        if rows.contains(where: \.fails) { throw ExitCode(Exit.regression) }
    }
}
