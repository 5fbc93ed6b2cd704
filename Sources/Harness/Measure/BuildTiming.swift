import Foundation
import TriggerKit
import Workload

/// What a writer pays per publication, measured alone: warm rebuilds of each strategy's matcher from the
/// same decoded set and vocabulary on one thread, timed one by one, with jemalloc's exact allocation
/// count and bytes per build. (`bench run --publish-every-ms` reports the same cost only as a mean,
/// measured while readers compete for the CPU.)
package enum BuildTiming {
    package struct Row: Sendable {
        package var strategy: String
        package var builds: Int
        package var meanMicroseconds: Double
        package var p50Microseconds: Double
        package var p99Microseconds: Double
        package var allocationsPerBuild: Double
        package var bytesPerBuild: Double
        /// Of the timed deltas (`measureDeltas`), how many were full rebuilds: a layered writer's merges,
        /// or all of them for a strategy that rebuilds.
        package var fullRebuilds: Int?
        /// Of the timed deltas, how many were published as redirected snapshots (docs/deltas.md).
        package var redirected: Int?
        /// jemalloc's bytes in use after the timed deltas minus before them (`measureDeltas`, an even
        /// number of deltas, so the writer holds the same set): what the deltas did not give back.
        package var heapGrowthBytes: Int?
        /// For a plugin, the host's part of each build (the corpus flattened for the ABI), left out of
        /// the figures above so they are the plugin's own: mean µs, and one build's mallocs and bytes.
        package var hostMeanMicroseconds: Double?
        package var hostAllocationsPerBuild: Double?
        package var hostBytesPerBuild: Double?
    }

    /// Builds each strategy's matcher `warmup` times untimed, then `builds` times timed, each after
    /// `pauseMs` milliseconds asleep (0: back to back, caches warm from the previous build).
    package static func measure(_ set: TriggerSet, strategies: [String], builds: Int, warmup: Int = 10, pauseMs: Int = 0,
                               sleep: (Int) -> Void = BuildTiming.sleep) throws -> [Row] {
        try measure(set, strategies: strategies.map(StrategyRegistry.option), builds: builds, warmup: warmup, pauseMs: pauseMs, sleep: sleep)
    }

    /// The same for strategies given whole (a plugin's among them).
    package static func measure(_ set: TriggerSet, strategies: [StrategyRegistry.Strategy], builds: Int, warmup: Int = 10, pauseMs: Int = 0,
                               sleep: (Int) -> Void = BuildTiming.sleep) throws -> [Row] {
        let vocabulary = Vocabulary(set)
        return try strategies.map { strategy in
            let name = strategy.name
            for _ in 0..<warmup { _ = try strategy.make(set, vocabulary) }
            var nanos: [UInt64] = []
            nanos.reserveCapacity(builds)
            var host = HostTally()
            for _ in 0..<builds {
                if pauseMs > 0 { sleep(pauseMs) }
                let t0 = Clock.now()
                let matcher = try strategy.make(set, vocabulary)
                nanos.append(host.own(Clock.now() &- t0, of: matcher))
                withExtendedLifetime(matcher) {}  // freed after the clock stops, as a replaced set would be
            }
            // Allocations of one more build, counted exactly.
            var last: (any Matcher)?
            let counted = try AllocatorStats.counting { last = try strategy.make(set, vocabulary) }
            return host.apply(to: row(name, nanos, counted), last: last.flatMap { $0 as? HostBuildShare })
        }
    }

    /// What applying a delta costs a writer, measured alone: for each strategy a writer of `set` applies
    /// `warmup` `BenchDeltas` deltas of `triggers` triggers untimed, then `deltas` (rounded up to even)
    /// timed one by one, then one more with its allocations counted. A strategy that does not apply deltas rebuilds the set.
    package static func measureDeltas(_ set: TriggerSet, strategies: [StrategyRegistry.Strategy], triggers: Int, deltas: Int, warmup: Int = 10,
                                     pauseMs: Int = 0) throws -> [Row] {
        let vocabulary = Vocabulary(set)
        return try strategies.map { strategy in
            let name = strategy.name
            let writer = try strategy.makeWriter(set, vocabulary, nil)
            var sequence = BenchDeltas(set, triggers: triggers)
            for _ in 0..<warmup { try writer.apply(sequence.next()) }
            let rebuildsBefore = writer.rebuilds, redirectsBefore = writer.redirects
            var nanos: [UInt64] = []
            nanos.reserveCapacity(deltas + 1)
            var host = HostTally()
            let heapBefore = AllocatorStats.allocatedBytes()
            for _ in 0..<(deltas + deltas % 2) {
                if pauseMs > 0 { Thread.sleep(forTimeInterval: Double(pauseMs) / 1000) }
                let delta = sequence.next()
                let t0 = Clock.now()
                let matcher = try writer.apply(delta)
                nanos.append(host.own(Clock.now() &- t0, of: matcher))
                withExtendedLifetime(matcher) {}
            }
            let rebuilds = writer.rebuilds - rebuildsBefore, redirected = writer.redirects - redirectsBefore
            let heapGrowth = AllocatorStats.allocatedBytes() - heapBefore
            let delta = sequence.next()
            var last: (any Matcher)?
            let counted = try AllocatorStats.counting { last = try writer.apply(delta) }
            var timed = host.apply(to: row(name, nanos, counted, fullRebuilds: rebuilds), last: last.flatMap { $0 as? HostBuildShare })
            timed.redirected = redirected
            timed.heapGrowthBytes = heapGrowth
            return timed
        }
    }

    /// The host's share of a plugin's builds, summed while they are timed, and taken out of its row.
    struct HostTally {
        var nanos: UInt64 = 0, builds = 0

        /// The build's own nanoseconds: `total` less the host's share when `matcher` has one.
        mutating func own(_ total: UInt64, of matcher: any Matcher) -> UInt64 {
            guard let share = (matcher as? HostBuildShare)?.hostShare else { return total }
            let hostNanos = min(total, UInt64(max(0, share.seconds) * 1e9))
            nanos &+= hostNanos
            builds += 1
            return total &- hostNanos
        }

        /// `row` with the host's share reported apart; its allocations are counted on a repeat of the
        /// host's work for `last` (the counted build's matcher) and taken out of the row's.
        func apply(to row: Row, last: HostBuildShare?) -> Row {
            guard builds > 0, let last else { return row }
            var row = row
            let hostCounted = AllocatorStats.counting { last.repeatHostWork() }
            row.hostMeanMicroseconds = Double(nanos) / Double(builds) / 1000
            row.hostAllocationsPerBuild = Double(hostCounted.requests)
            row.hostBytesPerBuild = Double(hostCounted.bytes)
            row.allocationsPerBuild = max(0, row.allocationsPerBuild - Double(hostCounted.requests))
            row.bytesPerBuild = max(0, row.bytesPerBuild - Double(hostCounted.bytes))
            return row
        }
    }

    /// The pause before a timed build or delta.
    package static func sleep(_ ms: Int) { Thread.sleep(forTimeInterval: Double(ms) / 1000) }

    static func row(_ name: String, _ timed: [UInt64], _ counted: (requests: UInt64, bytes: UInt64), fullRebuilds: Int? = nil) -> Row {
        let nanos = timed.sorted()
        func quantile(_ q: Double) -> Double { Double(nanos[min(nanos.count - 1, Int(q * Double(nanos.count)))]) / 1000 }
        return Row(strategy: name, builds: nanos.count,
                   meanMicroseconds: Double(nanos.reduce(0, +)) / Double(nanos.count) / 1000,
                   p50Microseconds: quantile(0.5), p99Microseconds: quantile(0.99),
                   allocationsPerBuild: Double(counted.requests), bytesPerBuild: Double(counted.bytes), fullRebuilds: fullRebuilds)
    }
}
