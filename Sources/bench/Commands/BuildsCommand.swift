import ArgumentParser
import Foundation
import Harness
import TriggerKit
import Workload

struct BuildsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "builds",
        abstract: "Time rebuilds of each strategy's matcher from the workload's trigger set (what a writer pays per publication), or with --delta-triggers the application of deltas.",
        discussion: """
            One thread, the same decoded set and vocabulary every time (as the publication writer rebuilds it); \
            10 untimed builds first, then --builds timed one by one: back to back (warm caches), or with \
            --pause-ms N sleeping N ms before each, as a writer publishing every N ms does. Allocations and \
            bytes are jemalloc's exact counts for one more build. With --delta-triggers N, a writer applies \
            deltas of N triggers instead (the ones bench run --delta-triggers publishes): compiled and \
            predicate-index apply them to layered snapshots, the others rebuild the set; the full-rebuilds \
            column counts the timed deltas that rebuilt it, and heap Δ is what the heap grew over them \
            (an even number, so the writer ends holding the set it began with).
            """)

    @Option(help: "A preset name from Corpora/workloads or a spec file path (default: default). Not with --corpus.")
    var workload: String?

    @Option(help: "Your own trigger set: a trigger-corpus/1 JSON file (builds need no events).")
    var corpus: String?

    @Option(help: "Comma-separated strategies to build (default: indexed,compiled,predicate-index,floor).", transform: CommaLists.strategies)
    var strategies: [String] = ["indexed", "compiled", "predicate-index", "floor"]

    @Option(name: .customLong("plugin"), help: "A matcher plugin to time as well (PATH or PATH,key=value,…; repeatable); its create and destroy are what a writer pays.")
    var plugins: [String] = []

    @OptionGroup var pluginCheck: PluginCheckOption

    @Option(parsing: .unconditional, help: "Timed builds per strategy.")
    var builds = 200

    @Option(parsing: .unconditional, help: "Milliseconds to sleep before each timed build (0: back to back).")
    var pauseMs = 0

    @Option(parsing: .unconditional, help: "Time deltas of N triggers applied by each strategy's writer instead of whole builds (--builds of them).")
    var deltaTriggers: Int?

    @OptionGroup var progressOption: ProgressOption

    func validate() throws {
        guard builds >= 1, builds <= 1_000_000 else { throw ValidationError("--builds takes 1 to 1000000") }
        guard pauseMs >= 0, pauseMs <= 10_000 else { throw ValidationError("--pause-ms takes 0 to 10000") }
        if let deltaTriggers { try Limits.check("--delta-triggers", deltaTriggers, 1...CorpusDecoder.maxTriggers) }
    }

    func run() throws {
        progressOption.apply()
        if corpus != nil, workload != nil { throw ValidationError("--workload generates a trigger set and --corpus brings your own; pass one or the other") }
        let spec = try WorkloadSpec.load(workload ?? "default")
        let set: TriggerSet, title: String, json: [UInt8]
        if let corpus {
            let loaded = try LoadedCorpus(path: corpus)
            (set, json) = (loaded.set, loaded.json)
            title = "corpus \(corpus)"
        } else {
            try spec.checkReplayBuffersFit(events: 0, file: "workload \(spec.name)")
            (set, json) = try WorkloadGenerator.corpusAndBytes(spec)
            title = "workload \(spec.name) (seed \(spec.seed))"
        }
        let libraries = try pluginCheck.load(plugins)
        let all = try strategies.map(StrategyRegistry.option) + libraries.map { $0.strategy(corpusJSON: json, of: set) }
        for strategy in all { try BuildRoom.check(strategy, set: set, file: corpus) }
        let rows = try deltaTriggers.map { try BuildTiming.measureDeltas(set, strategies: all, triggers: $0, deltas: builds, pauseMs: pauseMs) }
            ?? BuildTiming.measure(set, strategies: all, builds: builds, pauseMs: pauseMs)
        let what = deltaTriggers.map { "\(builds + builds % 2) timed deltas of \($0) triggers per strategy after 10 untimed" } ?? "\(builds) timed builds per strategy after 10 untimed"
        try TextOutput.printLine("\(title): \(set.triggers.count) triggers · \(what)" + (pauseMs > 0 ? ", each after \(pauseMs) ms asleep" : ", back to back"))
        let unit = deltaTriggers == nil ? "build" : "delta"
        try TextOutput.printLine("strategy".padding(toLength: max(15, rows.map(\.strategy.count).max() ?? 0), withPad: " ", startingAt: 0) + "  mean µs   p50 µs   p99 µs  mallocs/\(unit)   KB/\(unit)" + (deltaTriggers == nil ? "" : "  full rebuilds  redirected  heap Δ KB"))
        let width = max(15, rows.map(\.strategy.count).max() ?? 0)
        for r in rows {
            try TextOutput.printLine(r.strategy.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: "  %7.1f  %7.1f  %7.1f  %13.0f  %9.1f", r.meanMicroseconds, r.p50Microseconds, r.p99Microseconds,
                         r.allocationsPerBuild, r.bytesPerBuild / 1024)
                + (r.fullRebuilds.map { String(format: "  %13d", $0) } ?? "")
                + (r.redirected.map { String(format: "  %10d", $0) } ?? "")
                + (r.heapGrowthBytes.map { String(format: "  %+10.1f", Double($0) / 1024) } ?? ""))
        }
        for r in rows {
            guard let us = r.hostMeanMicroseconds, let mallocs = r.hostAllocationsPerBuild, let bytes = r.hostBytesPerBuild else { continue }
            try TextOutput.printLine("\(r.strategy): its own create (and destroy) above; the host's share apart, per \(unit): "
                + String(format: "%.1f µs, %.0f mallocs, %.1f KB (the corpus flattened for the ABI)", us, mallocs, bytes / 1024))
        }
    }
}
