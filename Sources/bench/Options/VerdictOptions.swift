import ArgumentParser
import Foundation
import Harness
import TriggerKit

/// How the regression gate judges a current run against its baseline, and where it writes its table:
/// the options `bench check` and `bench gate` share.
struct VerdictOptions: ParsableArguments {
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

    var outputs: [(option: String, path: String?)] { [("--markdown", markdown), ("--github-benchmark", githubBenchmark)] }

    func validate() throws {
        guard instructionTolerance >= 0, minimumEffect >= 0, alpha > 0, alpha < 1 else {
            throw ValidationError("--instruction-tolerance and --minimum-effect must be ≥ 0 and --alpha in (0, 1)")
        }
        _ = try Self.allowedDifferences(allowDifference)
    }

    /// The `--allow-difference` list, checked against the fields the gate compares.
    func gateOptions() throws -> Gate.Options {
        var options = Gate.Options()
        options.wallClock = wallClock
        options.instructionTolerance = instructionTolerance
        options.minimumEffect = minimumEffect
        options.alpha = alpha
        options.allowedDifferences = try Self.allowedDifferences(allowDifference)
        return options
    }

    /// Writes why the gate judged nothing to `--markdown` (a pull request's summary), with the command
    /// that shows it again; the job log alone is where nobody looks. `failed`: the gate stopped on a
    /// verdict of its own (strategies matched differently: exit 1), not on input it refused (exit 2).
    func writeRefusal(_ reason: String, command: [String], failed: Bool = false) {
        guard let markdown else { return }
        let heading = failed ? "**gate: FAIL** — the matches differ, whatever the times" : "**gate: REFUSED** — nothing was judged"
        let text = "\(heading): \(PrintableText.markdownText(reason))\n\n"
            + "Reproduce: \(PrintableText.markdownCode(command.map(ShellWord.quoted).joined(separator: " ")))\n"
        // Best effort: the refusal itself is the error the command ends with.
        try? AtomicFile.write(Data(text.utf8), to: markdown)
    }

    static func allowedDifferences(_ list: String) throws -> Set<String> {
        let allowed = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if let unknown = allowed.subtracting(Gate.differenceFields).first {
            throw ValidationError("--allow-difference: unknown field \"\(unknown)\"; choose from \(Gate.differenceFields.sorted().joined(separator: ", "))")
        }
        return allowed
    }

    /// Compares `current` with `baseline` (named as the user gave them), prints the table, writes the
    /// outputs asked for, and throws exit 1 on a regression; a refusal (unlike runs) is bad input (2).
    func judge(baseline: RunReport, current: RunReport, names: (baseline: String, current: String)) throws {
        let report: Gate.Report
        do {
            report = try Gate.compare(baseline: baseline, current: current, options: gateOptions())
        } catch let refusal as Gate.Refusal {
            throw InputError(file: "\(names.baseline) vs \(names.current)", path: "", reason: refusal.description)
        }
        let text = report.markdown()
        try TextOutput.printText(text)
        if let markdown { try AtomicFile.write(Data(text.utf8), to: markdown) }
        if let githubBenchmark { try AtomicFile.write(Gate.githubBenchmarkJSON(current), to: githubBenchmark) }
        if !report.regressions.isEmpty { throw ExitCode(Exit.regression) }
    }
}

extension Gate.WallClock: ExpressibleByArgument {}
