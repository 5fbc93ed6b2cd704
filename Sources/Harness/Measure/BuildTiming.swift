import Foundation
import TriggerKit
import Workload

/// What a writer pays per publication, measured alone: warm rebuilds of each strategy's matcher from the
/// same decoded set and vocabulary on one thread, timed one by one, with jemalloc's exact allocation
/// count and bytes per build. (`bench run --publish-every-ms` reports the same cost only as a mean,
/// measured while readers compete for the CPU.)
public enum BuildTiming {
    public struct Row: Sendable {
        public var strategy: String
        public var builds: Int
        public var meanMicroseconds: Double
        public var p50Microseconds: Double
        public var p99Microseconds: Double
        public var allocationsPerBuild: Double
        public var bytesPerBuild: Double
        /// Of the timed deltas (`measureDeltas`), how many were full rebuilds: a layered writer's merges,
        /// or all of them for a strategy that rebuilds.
        public var fullRebuilds: Int?
        /// Of the timed deltas, how many were published as redirected snapshots (docs/deltas.md).
        public var redirected: Int?
        /// jemalloc's bytes in use after the timed deltas minus before them (`measureDeltas`, an even
        /// number of deltas, so the writer holds the same set): what the deltas did not give back.
        public var heapGrowthBytes: Int?
    }

    /// Builds each strategy's matcher `warmup` times untimed, then `builds` times timed, each after
    /// `pauseMs` milliseconds asleep (0: back to back, caches warm from the previous build).
    public static func measure(_ set: TriggerSet, strategies: [String], builds: Int, warmup: Int = 10, pauseMs: Int = 0,
                               sleep: (Int) -> Void = BuildTiming.sleep) throws -> [Row] {
        try measure(set, strategies: strategies.map(StrategyRegistry.option), builds: builds, warmup: warmup, pauseMs: pauseMs, sleep: sleep)
    }

    /// The same for strategies given whole (a plugin's among them).
    public static func measure(_ set: TriggerSet, strategies: [StrategyRegistry.Strategy], builds: Int, warmup: Int = 10, pauseMs: Int = 0,
                               sleep: (Int) -> Void = BuildTiming.sleep) throws -> [Row] {
        let vocabulary = Vocabulary(set)
        return try strategies.map { strategy in
            let name = strategy.name
            for _ in 0..<warmup { _ = try strategy.make(set, vocabulary) }
            var nanos: [UInt64] = []
            nanos.reserveCapacity(builds)
            for _ in 0..<builds {
                if pauseMs > 0 { sleep(pauseMs) }
                let t0 = Clock.now()
                let matcher = try strategy.make(set, vocabulary)
                nanos.append(Clock.now() &- t0)
                withExtendedLifetime(matcher) {}  // freed after the clock stops, as a replaced set would be
            }
            // Allocations of one more build, counted exactly.
            let counted = try AllocatorStats.counting { try withExtendedLifetime(strategy.make(set, vocabulary)) {} }
            return row(name, nanos, counted)
        }
    }

    /// What applying a delta costs a writer, measured alone: for each strategy a writer of `set` applies
    /// `warmup` `BenchDeltas` deltas of `triggers` triggers untimed, then `deltas` (rounded up to even)
    /// timed one by one, then one more with its allocations counted. A strategy that does not apply deltas rebuilds the set.
    public static func measureDeltas(_ set: TriggerSet, strategies: [StrategyRegistry.Strategy], triggers: Int, deltas: Int, warmup: Int = 10,
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
            let heapBefore = AllocatorStats.allocatedBytes()
            for _ in 0..<(deltas + deltas % 2) {
                if pauseMs > 0 { Thread.sleep(forTimeInterval: Double(pauseMs) / 1000) }
                let delta = sequence.next()
                let t0 = Clock.now()
                let matcher = try writer.apply(delta)
                nanos.append(Clock.now() &- t0)
                withExtendedLifetime(matcher) {}
            }
            let rebuilds = writer.rebuilds - rebuildsBefore, redirected = writer.redirects - redirectsBefore
            let heapGrowth = AllocatorStats.allocatedBytes() - heapBefore
            let delta = sequence.next()
            let counted = try AllocatorStats.counting { try withExtendedLifetime(writer.apply(delta)) {} }
            var timed = row(name, nanos, counted, fullRebuilds: rebuilds)
            timed.redirected = redirected
            timed.heapGrowthBytes = heapGrowth
            return timed
        }
    }

    /// The pause before a timed build or delta.
    public static func sleep(_ ms: Int) { Thread.sleep(forTimeInterval: Double(ms) / 1000) }

    static func row(_ name: String, _ timed: [UInt64], _ counted: (requests: UInt64, bytes: UInt64), fullRebuilds: Int? = nil) -> Row {
        let nanos = timed.sorted()
        func quantile(_ q: Double) -> Double { Double(nanos[min(nanos.count - 1, Int(q * Double(nanos.count)))]) / 1000 }
        return Row(strategy: name, builds: nanos.count,
                   meanMicroseconds: Double(nanos.reduce(0, +)) / Double(nanos.count) / 1000,
                   p50Microseconds: quantile(0.5), p99Microseconds: quantile(0.99),
                   allocationsPerBuild: Double(counted.requests), bytesPerBuild: Double(counted.bytes), fullRebuilds: fullRebuilds)
    }
}
