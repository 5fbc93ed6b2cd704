import Foundation
import TriggerKit
import Workload

/// Runs a configuration in phases: load the input, build each strategy (measuring what is per
/// strategy), prepare its rows, time every row's repetitions interleaved, check that every strategy
/// matched alike, and make the result rows.
package final class Runner {
    package private(set) var configuration: RunConfiguration
    let progress: ProgressLine

    package init(_ configuration: RunConfiguration) {
        self.configuration = configuration
        progress = ProgressLine(enabled: configuration.showProgress, prefix: configuration.progressPrefix)
    }

    package func run() throws -> RunReport {
        var noise = RunMetadata.Noise.read()
        let clock = CycleClock.calibrate()
        let input = try LoadedInput.load(configuration.input, progress: progress)
        if let budget = configuration.referenceBudgetSeconds, !configuration.foreignOrigins.isEmpty {
            configuration.referenceEvents = ReferenceBudget.fit(input, requested: configuration.referenceEvents, seconds: budget,
                                                                note: { TextOutput.standardError("bench: note: \($0)") })
        }
        let strategies = try configuration.strategies.map { try $0.strategy(for: input) }
        let afterGeneration = AllocatorStats.gauges()
        var afterBuild: [String: AllocatorStats.Gauges] = [:]
        var built: [BuiltStrategy] = []
        var rows: [TimedRow] = []
        for strategy in strategies {
            progress.note("building \(strategy.name); its single-event and allocation passes")
            let b = try BuiltStrategy(strategy, input: input, configuration: configuration, clock: clock, progress: progress)
            afterBuild[b.name] = b.gaugesAfterBuild
            built.append(b)
            rows += try configuration.rowKeys(b.name).map { try TimedRow($0, built: b, input: input, configuration: configuration) }
        }
        var cold: [String: EventLatency] = [:]
        // Only a plain row shows them; the buffer is mapped only when some strategy has one.
        let coldBuilt = built.filter { b in configuration.rowKeys(b.name).contains(where: \.isPlain) }
        if configuration.coldEvents > 0, !coldBuilt.isEmpty, let eviction = CacheEviction(bytes: CacheEviction.defaultBytes) {
            let most = min(configuration.coldEvents, coldBuilt.map(\.count).max() ?? 0)
            progress.note("timing \(most) cold events per strategy, each after reading \(eviction.bytes >> 20) MB")
            cold = try ColdPass.measure(coldBuilt, events: input.events, count: configuration.coldEvents, clock: clock, eviction: eviction)
        }
        // Progress, not a warning line: the table says it too, under its header. Just before timing, so
        // that an input or build error is the one line it should be.
        for warning in noise.warnings(cores: ProcessInfo.processInfo.activeProcessorCount) { progress.note("warning: \(warning)") }
        progress.note("timing \(rows.count) row\(rows.count == 1 ? "" : "s") × \(configuration.repetitions) repetition\(configuration.repetitions == 1 ? "" : "s")")
        try time(rows)
        progress.note("checking that every strategy matched alike")
        let measured = try rows.map { try $0.measured(configuration: configuration, cold: cold[$0.key.strategy]) }
        try CrossCheck.strategiesAgree(built: built, rows: measured, input: input, configuration: configuration, progress: progress)
        var results = ResultRows.assemble(measured)
        // Asked after the run, so facts a foreign matcher gathers while building are complete.
        let facts = Dictionary(built.compactMap { b in (b.matcher as? any ForeignMatcher).map { (b.name, $0.facts()) } }.filter { !$0.1.isEmpty },
                               uniquingKeysWith: { a, _ in a })
        for k in results.indices { results[k].pluginFacts = facts[results[k].strategy] }
        progress.note("")
        noise.loadAfter = RunMetadata.Noise.loadAverage()
        noise.othersBusyAfter = RunMetadata.Noise.othersBusy()
        let git = RunMetadata.gitState()
        let run = RunMetadata(
            timestamp: RunMetadata.timestamp(), commit: git.commit, dirty: git.dirty, label: configuration.label,
            host: RunMetadata.hostName(), command: CommandLine.arguments, settings: configuration.settings(events: input.events.count), noise: noise)
        return RunReport(
            build: BuildInfo.configuration, environment: .current(), workload: input.workload, results: results,
            run: run, jemalloc: .init(afterGeneration: afterGeneration, afterBuild: afterBuild, end: AllocatorStats.gauges()))
    }

    /// Times every row's repetitions, interleaved: every row's first, then every row's second, … Each
    /// pass is preceded by its own row's warm-up (TimedRow.repeatOnce), so interleaving costs no row
    /// the caches it would have kept alone.
    func time(_ rows: [TimedRow]) throws {
        let perRow = PerfControl.perRow
        if !perRow { PerfControl.enable() }
        defer { if !perRow { PerfControl.disable() } }
        for repetition in 0..<configuration.repetitions {
            for row in rows {
                let label = configuration.repetitions > 1 ? "\(row.key) #\(repetition + 1)" : "\(row.key)"
                let slowdown = configuration.injectedSlowdown.flatMap { $0.strategy == row.key.strategy ? $0.fraction : nil } ?? 0
                // Profiling one strategy (scripts/profile PLUGIN.so): sampled only while its rows run.
                let sampled = perRow && PerfControl.samples(row.key.strategy)
                if sampled { PerfControl.enable() }
                defer { if sampled { PerfControl.disable() } }
                try row.repeatOnce(label: label, batchSize: configuration.batchSize, warmup: configuration.warmupSeconds,
                                   passSeconds: configuration.passSeconds, slowdown: slowdown, progress: progress)
            }
        }
    }
}
