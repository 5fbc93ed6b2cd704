import Foundation
import Workload
import TriggerKit

/// What `bench run` measures (docs/harness.md).
public struct RunConfiguration: Sendable {
    public var input: InputSource
    public var strategies: [String] = StrategyRegistry.names
    /// Matcher plugins, each a row `plugin:NAME` after the built-in strategies.
    public var plugins: [PluginLibrary] = []
    /// Whether the plugins passed `PluginAdmission` before the run (false: `--no-plugin-check`).
    public var pluginsChecked = true
    public var threads: [Int] = [1]
    public var publications: [Publication] = [.none]
    /// What a writer publishes while readers match, on lock-free and mutex rows (nil: nothing).
    public var writer: WriterSettings?
    /// `reference` is slow by design: it replays only this many events (the others are checked against
    /// it on the same prefix).
    public static let defaultReferenceEvents = 50_000
    public var referenceEvents = RunConfiguration.defaultReferenceEvents
    /// When set (the user gave no --reference-events), a run with plugins shrinks `referenceEvents` to
    /// what the oracle matches in about this many seconds.
    public var referenceBudgetSeconds: Double?
    public var batchSize = 1024
    /// A known slowdown added to one strategy's timed rows (each batch busy-waits this fraction of its
    /// own time): how a gate's statistics are calibrated (`scripts/calibrate-ab`). Recorded in the
    /// results and compared by the gate, so a slowed run cannot pass for a real one.
    public var injectedSlowdown: (strategy: String, fraction: Double)?
    public var warmupEvents = 100_000
    /// Events in the untimed allocation-counting pass (after a warm pass over the same events).
    public var allocationEvents = 50_000
    /// Events timed one at a time per strategy (1 thread, unpublished), for single-event percentiles.
    public var latencyEvents = 100_000
    /// Timed passes per row; each pass's mean ns/event is one sample for the confidence intervals and
    /// the gate's wall-clock tier.
    public var repetitions = 3
    /// A free-form name recorded with the results (`--label`).
    public var label: String?
    public var showProgress = false
    /// Put before the progress line's label (a sweep's point).
    public var progressPrefix: String?

    public init(input: InputSource) { self.input = input }

    public init(workload: WorkloadSpec) { input = .generated(workload) }

    /// The rows of `strategy`, in the order they are measured: publication modes, then thread counts.
    func rowKeys(_ strategy: String) -> [RowKey] {
        publications.flatMap { p in threads.map { RowKey(strategy: strategy, publication: p, threads: $0) } }
    }

    /// The settings a results file records, for `events` generated events.
    func settings(events: Int) -> RunMetadata.Settings {
        RunMetadata.Settings(
            strategies: strategies + plugins.map(\.strategyName), threads: threads, publications: publications.map(\.rawValue), publishEveryMs: writer?.everyMs,
            prebuiltSets: writer?.mode == .prebuilt, deltaTriggers: writer?.deltaTriggers, events: events, referenceEvents: referenceEvents, batchSize: batchSize,
            warmupEvents: warmupEvents, allocationEvents: allocationEvents, latencyEvents: latencyEvents, repetitions: repetitions,
            injectedSlowdown: injectedSlowdown.map { "\($0.strategy)=\($0.fraction)" },
            plugins: plugins.isEmpty ? nil : plugins.map {
                .init(name: $0.name, version: $0.version, path: $0.path, sha256: $0.sha256, options: $0.options.isEmpty ? nil : $0.options,
                      abiVersion: Int($0.abiVersion), checked: pluginsChecked)
            })
    }
}
