import Foundation
import Workload
import TriggerKit

/// What `bench run` measures (docs/harness.md).
package struct RunConfiguration: Sendable {
    package var input: InputSource
    /// The strategies measured, in row order: built-in ones, then any a plugin adds.
    package var strategies: [RunStrategy] = RunStrategy.allBuiltIn
    package var threads: [Int] = [1]
    package var publications: [Publication] = [.none]
    /// What a writer publishes while readers match, on lock-free and mutex rows (nil: nothing).
    package var writer: WriterSettings?
    /// `reference` is slow by design: it replays only this many events (the others are checked against
    /// it on the same prefix).
    package static let defaultReferenceEvents = 50_000
    package var referenceEvents = RunConfiguration.defaultReferenceEvents
    /// When set (the user gave no --reference-events), a run with a foreign strategy (a plugin, usually
    /// on the user's own corpus) shrinks `referenceEvents` to what the oracle matches in about this many seconds.
    package var referenceBudgetSeconds: Double?
    package var batchSize = 1024
    /// A known slowdown added to one strategy's timed rows (each batch busy-waits this fraction of its
    /// own time): how a gate's statistics are calibrated (`scripts/calibrate-ab`). Recorded in the
    /// results and compared by the gate, so a slowed run cannot pass for a real one.
    package var injectedSlowdown: (strategy: String, fraction: Double)?
    /// Events of the warm pass made once when a row is created (memo tables, lazily built indexes).
    package var warmupEvents = 100_000
    /// Untimed replay of a row's own events just before each of its timed passes, seconds: the pass then
    /// starts in the caches its row leaves, not the ones the row timed before it left.
    package var warmupSeconds = RunConfiguration.defaultWarmupSeconds
    package static let defaultWarmupSeconds = 0.02
    /// A timed pass replays the row's events as many whole times as makes it last at least this long
    /// (`--pass-seconds`; 0: once, as a fixed count of events).
    package var passSeconds = RunConfiguration.defaultPassSeconds
    package static let defaultPassSeconds = 0.1
    /// Events timed one at a time per strategy after evicting the caches before each (0: skip).
    package var coldEvents = RunConfiguration.defaultColdEvents
    package static let defaultColdEvents = 100
    /// Events in the untimed allocation-counting pass (after a warm pass over the same events).
    package var allocationEvents = 50_000
    /// Events timed one at a time per strategy (1 thread, unpublished), for single-event percentiles.
    package var latencyEvents = 100_000
    /// Timed passes per row; each pass's mean ns/event is one sample for the confidence intervals and
    /// the gate's wall-clock tier.
    package var repetitions = 3
    /// A free-form name recorded with the results (`--label`).
    package var label: String?
    package var showProgress = false
    /// Put before the progress line's label (a sweep's point).
    package var progressPrefix: String?

    package init(input: InputSource) { self.input = input }

    package init(workload: WorkloadSpec) { input = .generated(workload) }

    /// Where the strategies from outside the package came from (the plugins), in row order.
    var foreignOrigins: [RunMetadata.Settings.Plugin] { strategies.compactMap(\.origin) }

    /// The events the run will replay when the configuration alone says (a generated workload); nil
    /// when it learns them by reading a log.
    package var plannedEvents: Int? {
        if case .generated(let spec) = input { return spec.events }
        return nil
    }

    /// The rows of `strategy`, in the order they are measured: publication modes, then thread counts.
    func rowKeys(_ strategy: String) -> [RowKey] {
        publications.flatMap { p in threads.map { RowKey(strategy: strategy, publication: p, threads: $0) } }
    }

    /// The settings a results file records, for `events` generated events.
    package func settings(events: Int) -> RunMetadata.Settings {
        RunMetadata.Settings(
            strategies: strategies.map(\.name), threads: threads, publications: publications.map(\.rawValue), publishEveryMs: writer?.everyMs,
            prebuiltSets: writer?.mode == .prebuilt, deltaTriggers: writer?.deltaTriggers, events: events, referenceEvents: referenceEvents, batchSize: batchSize,
            warmupEvents: warmupEvents, allocationEvents: allocationEvents, latencyEvents: latencyEvents, repetitions: repetitions,
            warmupSeconds: warmupSeconds, passSeconds: passSeconds, coldEvents: coldEvents,
            injectedSlowdown: injectedSlowdown.map { "\($0.strategy)=\($0.fraction)" },
            plugins: foreignOrigins.isEmpty ? nil : foreignOrigins)
    }
}
