import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct BuildsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "builds",
        abstract: "Time rebuilds of each strategy's matcher from the workload's trigger set (what a writer pays per publication).",
        discussion: """
            One thread, the same decoded set and vocabulary every time (as the publication writer rebuilds it); \
            10 untimed builds first, then --builds timed one by one: back to back (warm caches), or with \
            --pause-ms N sleeping N ms before each, as a writer publishing every N ms does. Allocations and \
            bytes are jemalloc's exact counts for one more build.
            """)

    @Option(help: "A preset name from Corpora/workloads or a spec file path (default: default). Not with --corpus.")
    var workload: String?

    @Option(help: "Your own trigger set: a trigger-corpus/1 JSON file (builds need no events).")
    var corpus: String?

    @Option(help: "Comma-separated strategies to build.")
    var strategies = "indexed,compiled,predicate-index,floor"

    @Option(parsing: .unconditional, help: "Timed builds per strategy.")
    var builds = 200

    @Option(parsing: .unconditional, help: "Milliseconds to sleep before each timed build (0: back to back).")
    var pauseMs = 0

    func validate() throws {
        guard builds >= 1, builds <= 1_000_000 else { throw ValidationError("--builds takes 1 to 1000000") }
        guard pauseMs >= 0, pauseMs <= 10_000 else { throw ValidationError("--pause-ms takes 0 to 10000") }
    }

    func run() throws {
        if corpus != nil, workload != nil { throw ValidationError("--workload generates a trigger set and --corpus brings your own; pass one or the other") }
        let spec = try WorkloadSpec.load(workload ?? "default")
        let set: TriggerSet, title: String
        if let corpus {
            set = try LoadedCorpus(path: corpus).set
            title = "corpus \(corpus)"
        } else {
            set = try WorkloadGenerator.corpus(spec)
            title = "workload \(spec.name) (seed \(spec.seed))"
        }
        let rows = try BuildTiming.measure(set, strategies: RunOptions.parseStrategies(strategies), builds: builds, pauseMs: pauseMs)
        try TextOutput.printLine("\(title): \(set.triggers.count) triggers · \(builds) timed builds per strategy after 10 untimed"
              + (pauseMs > 0 ? ", each after \(pauseMs) ms asleep" : ", back to back"))
        try TextOutput.printLine("strategy         mean µs   p50 µs   p99 µs  mallocs/build   KB/build")
        for r in rows {
            try TextOutput.printLine(r.strategy.padding(toLength: 15, withPad: " ", startingAt: 0)
                + String(format: "  %7.1f  %7.1f  %7.1f  %13.0f  %9.1f", r.meanMicroseconds, r.p50Microseconds, r.p99Microseconds,
                         r.allocationsPerBuild, r.bytesPerBuild / 1024))
        }
    }
}
