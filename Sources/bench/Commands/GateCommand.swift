import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

/// The regression gate in one step: a run measured as its baseline was, then `bench check`'s
/// comparison; with `--update`, the run becomes the baseline.
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "The regression gate in one step: measure the input (5 repetitions, callgrind counts) and compare it with a baseline; exit 1 on a regression.",
        discussion: """
            Runs `bench run` with --repetitions 5 --reference-events 5000 --instructions on the input (a preset, \
            default tiny, or --corpus with --event-log), then compares the results with the baseline as `bench \
            check` does (docs/measuring.md). A preset's baseline is Corpora/baselines/PRESET.json (in this folder, \
            else in the checkout bench was built from); a spec file or your own data needs --baseline FILE. \
            --update records the baseline instead (commit it). Exit codes: 0 pass, 1 regression, 2 bad input or \
            refusal (unlike environments, workloads or settings).

            Examples:
              bench gate tiny --wall-clock informational
              bench gate --update --corpus triggers.json --event-log events.jsonl --baseline gate/base.json
              bench gate --corpus triggers.json --event-log events.jsonl --baseline gate/base.json
            """)

    @Argument(help: "A preset to measure (the same as --workload PRESET; default tiny).")
    var preset: String?

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("plugin"), help: "A matcher plugin, as `bench run --plugin` takes it (repeatable).")
    var plugins: [String] = []

    @OptionGroup var pluginCheck: PluginCheckOption

    @Option(help: "Comma-separated strategies to run (default: all).")
    var strategies: String?

    @Option(parsing: .unconditional, help: "Override the workload's event count; with --event-log, replay its first N lines.")
    var events: Int?

    @Option(help: "The baseline results JSON (default for a preset: Corpora/baselines/PRESET.json).")
    var baseline: String?

    @Flag(help: "Write this run as the baseline instead of comparing with it.")
    var update = false

    @Option(help: "Also write this run's results as JSON.")
    var json: String?

    @OptionGroup var verdict: VerdictOptions

    /// What the gate measures besides the input: enough repetitions for the wall-clock test, and
    /// callgrind counts for the instruction tier.
    static let runSettings = ["--repetitions", "5", "--reference-events", "5000"]

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        if preset != nil, input.workload != nil || input.corpus != nil {
            throw ValidationError("\(preset!) and --\(input.workload != nil ? "workload" : "corpus") both say what to measure; give one")
        }
        // The callgrind children read the input again.
        try input.requireRereadableFiles("the gate's callgrind children each read it again")
    }

    func run() throws {
        progressOption.apply()
        var outputsChecked = false
        do {
            try gate(outputsChecked: &outputsChecked)
        } catch let verdictCode as ExitCode {
            throw verdictCode  // a regression: the table was written
        } catch {
            // Whatever stopped the gate, a pull request's summary says why (once --markdown is known
            // not to name one of the inputs).
            if outputsChecked {
                verdict.writeRefusal(Self.reason(error), command: ["bench"] + CommandLine.arguments.dropFirst(), failed: error is MatchedWrongly)
            }
            throw error
        }
    }

    /// An error as the one line `bench` prints for it, without a usage hint.
    static func reason(_ error: Error) -> String {
        switch error {
        case let e as ValidationError: e.message
        case let e as MatchedWrongly: "matched wrongly: \(e.description)"
        default: "\(error)"
        }
    }

    func gate(outputsChecked: inout Bool) throws {
        // The input first: an unknown preset is named as one, not as a missing baseline.
        let source = try input.source(defaultWorkload: preset ?? "tiny")
        let baselinePath = try resolveBaseline()
        try OutputPaths.refuseOverwriting(
            outputs: verdict.outputs + [("--json", json)] + (update ? [("--baseline", baselinePath)] : []),
            inputs: [("--corpus", input.corpus), ("--event-log", input.eventLog), ("--workload", input.workloadFile)]
                + plugins.map { ("--plugin", PluginLibrary.path(ofArgument: $0)) } + (update ? [] : [("--baseline", baselinePath)]))
        outputsChecked = true
        // Opened (and discarded) now, as --json is below: a missing or unwritable folder fails before
        // measuring. Not a FIFO or a device: opening one now would end its reader before the summary.
        for (_, path) in verdict.outputs {
            var status = stat()
            if let path, stat(path, &status) != 0 || (status.st_mode & S_IFMT) == S_IFREG { _ = try AtomicFile(path: path) }
        }
        // Read before the minutes of measuring: a missing or broken baseline fails now.
        let base: RunReport? = update ? nil : try loadBaseline(baselinePath)
        if update {
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: baselinePath).deletingLastPathComponent().path,
                                                    withIntermediateDirectories: true)
        }
        let baselineFile = update ? try AtomicFile(path: baselinePath) : nil
        let jsonFile = try json.map(AtomicFile.init(path:))

        let configuration = try runOptions().makeConfiguration(input: source)
        if let base { try refuseEarly(base, baselinePath, configuration) }
        let report = try RunCommand.measure(configuration, instructions: true)
        try TextOutput.printLine(report.table())
        let encoded = try report.json()
        try jsonFile?.commit(with: encoded)
        if let baselineFile {
            try baselineFile.commit(with: encoded)
            try TextOutput.printLine("wrote \(PrintableText.escaped(baselinePath))")
            return
        }
        try TextOutput.printLine("")
        // Judged as `bench check` judges a results file: through the same encoding.
        let current = try RunReport.decode(Array(encoded), file: "this run")
        try verdict.judge(baseline: base!, current: current, names: (baselinePath, "this run"))
    }

    /// What can be told before measuring is refused now, not after minutes: a generated workload
    /// other than the baseline's, and settings the run will record that differ from the baseline's.
    func refuseEarly(_ base: RunReport, _ baselinePath: String, _ configuration: RunConfiguration) throws {
        do {
            var notes: [String] = []
            if case .generated(let spec) = configuration.input {
                try Gate.checkSameWorkload(base.workload, RunReport.Workload(spec, events: spec.events), notes: &notes)
            } else if base.workload.data == nil {
                throw Gate.Refusal(description: "the baseline replayed the generated workload \(PrintableText.escaped(base.workload.name)) and this run replays your files; "
                                   + "rerun with the baseline's --workload, or record a baseline of your files with --update")
            }
            let unknown: Set<String> = configuration.plannedEvents == nil ? ["events", "reference_events"] : []
            try Gate.checkPlannedSettings(baseline: base, planned: configuration.settings(events: configuration.plannedEvents ?? 0),
                                          unknown: unknown, options: verdict.gateOptions())
        } catch let refusal as Gate.Refusal {
            throw InputError(file: "\(baselinePath) vs this run", path: "", reason: refusal.description)
        }
    }

    /// `--baseline`, else a preset's stored baseline (here, then in the checkout); for `--update`
    /// without `--baseline`, where the checkout keeps it.
    func resolveBaseline() throws -> String {
        if let baseline { return baseline }
        guard input.corpus == nil, input.workloadFile == nil else {
            throw ValidationError("give --baseline FILE for your own data or spec file (record it once with bench gate --update … --baseline FILE)")
        }
        let name = presetName
        let local = "Corpora/baselines/\(name).json"
        let stored = SourceTree.root.map { "\($0)/Corpora/baselines/\(name).json" }
        if update { return stored ?? local }
        return [local, stored].compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) } ?? stored ?? local
    }

    var presetName: String { input.workloadName(or: preset ?? "tiny") }

    func loadBaseline(_ path: String) throws -> RunReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(file: path, path: "", reason: "no baseline here; record one with bench gate --update and the same inputs")
        }
        let baseline = try RunReport.load(path)
        try baseline.requireCurrentMatchDigest(file: path, fix: "record it again with bench gate --update and the same inputs")
        // A broken baseline fails at once, not after a minute of measuring.
        do { try Gate.requireJudgeable(baseline, side: "baseline") } catch let refusal as Gate.Refusal {
            throw InputError(file: path, path: "", reason: refusal.description)
        }
        return baseline
    }

    /// `bench run`'s options for this gate: its own settings and the few the user may give, parsed by
    /// `RunOptions` itself (one set of checks and defaults for both commands).
    func runOptions() throws -> RunOptions {
        var arguments = Self.runSettings
        for plugin in plugins { arguments += ["--plugin", plugin] }
        if pluginCheck.skip { arguments.append("--no-plugin-check") }
        if let strategies { arguments += ["--strategies", strategies] }
        if let events { arguments += ["--events", String(events)] }
        do {
            return try RunOptions.parse(arguments)
        } catch {
            throw ValidationError(RunOptions.message(for: error))
        }
    }
}
