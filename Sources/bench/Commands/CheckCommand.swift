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
            Exit codes: 0 pass, 1 regression, 2 bad input or refusal. `bench gate` runs the measurement and this \
            comparison in one step.
            """)

    @Option(help: "The baseline results JSON (e.g. Corpora/baselines/tiny.json).")
    var baseline: String

    @Option(help: "The results JSON to judge (from `bench run --json`).")
    var current: String

    @OptionGroup var verdict: VerdictOptions

    func run() throws {
        try OutputPaths.refuseOverwriting(outputs: verdict.outputs, inputs: [("--baseline", baseline), ("--current", current)])
        try verdict.judge(baseline: try RunReport.load(baseline), current: try RunReport.load(current), names: (baseline, current))
    }
}
