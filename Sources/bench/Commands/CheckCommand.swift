import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "The regression gate: compare a results file against a baseline; exit 1 on a regression.",
        discussion: """
            Three tiers (docs/measuring.md): checksums and allocations/event must be equal; instructions/event (from \
            --instructions runs) may rise by at most --instruction-tolerance; wall clock fails only when the \
            Mann–Whitney U test over the repetition samples (--repetitions) is significant AND the median slowed \
            by more than --minimum-effect. Results from unlike environments, workloads or run settings, and empty \
            results, are refused (exit 2); a different kernel is noted. \
            Exit codes: 0 pass, 1 regression, 2 bad input or refusal.
            """)

    @Option(help: "The baseline results JSON (e.g. Corpora/baselines/tiny.json).")
    var baseline: String

    @Option(help: "The results JSON to judge (from `bench run --json`).")
    var current: String

    @Option(help: "Wall-clock tier: enforce, informational (report, never fail) or off.")
    var wallClock: Gate.WallClock = .enforce

    @Option(parsing: .unconditional, help: "Relative rise of instructions/event that fails, e.g. 0.02 for 2 %.")
    var instructionTolerance = 0.02

    @Option(parsing: .unconditional, help: "Minimum relative slowdown of the median ns/event that can fail, e.g. 0.05 for 5 %.")
    var minimumEffect = Gate.defaultMinimumEffect

    @Option(parsing: .unconditional, help: "Significance level of the Mann–Whitney U test.")
    var alpha = 0.01

    @Option(help: "Comma-separated fields allowed to differ: environment (build, swift, jemalloc, malloc_conf, cpu, cores) or settings (events, reference_events, batch_size, warmup_events, allocation_events, latency_events, repetitions, publish_every_ms, prebuilt_sets, plugins), or all. A different kernel is only noted.")
    var allowDifference = ""

    @Option(help: "Also write the Markdown table to this file (e.g. a CI job summary).")
    var markdown: String?

    @Option(help: "Write the current results as github-action-benchmark `customSmallerIsBetter` JSON.")
    var githubBenchmark: String?

    static var differenceFields: Set<String> { Gate.differenceFields }

    /// The `--allow-difference` list, checked against the fields the gate compares.
    static func allowedDifferences(_ list: String) throws -> Set<String> {
        let allowed = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if let unknown = allowed.subtracting(differenceFields).first {
            throw ValidationError("--allow-difference: unknown field \"\(unknown)\"; choose from \(differenceFields.sorted().joined(separator: ", "))")
        }
        return allowed
    }

    func run() throws {
        try OutputPaths.refuseOverwriting(outputs: [("--markdown", markdown), ("--github-benchmark", githubBenchmark)],
                                     inputs: [("--baseline", baseline), ("--current", current)])
        guard instructionTolerance >= 0, minimumEffect >= 0, alpha > 0, alpha < 1 else {
            throw ValidationError("--instruction-tolerance and --minimum-effect must be ≥ 0 and --alpha in (0, 1)")
        }
        let allowed = try Self.allowedDifferences(allowDifference)
        var options = Gate.Options()
        options.wallClock = wallClock
        options.instructionTolerance = instructionTolerance
        options.minimumEffect = minimumEffect
        options.alpha = alpha
        options.allowedDifferences = allowed
        let base = try RunReport.load(baseline)
        let cur = try RunReport.load(current)
        let report: Gate.Report
        do {
            report = try Gate.compare(baseline: base, current: cur, options: options)
        } catch let refusal as Gate.Refusal {
            throw InputError(file: "\(baseline) vs \(current)", path: "", reason: refusal.description)
        }
        let text = report.markdown()
        try TextOutput.printText(text)
        if let markdown { try AtomicFile.write(Data(text.utf8), to: markdown) }
        if let githubBenchmark { try AtomicFile.write(Gate.githubBenchmarkJSON(cur), to: githubBenchmark) }
        if !report.regressions.isEmpty { throw ExitCode(Exit.regression) }
    }
}

extension Gate.WallClock: ExpressibleByArgument {}
