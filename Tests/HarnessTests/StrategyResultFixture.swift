import Foundation
import Harness
import TriggerKit
import Workload
import XCTest

/// A result with everything but the named fields fixed (shared by the gate and ratio tests). A checksum
/// is up to 16 hex digits, as in a results file.
func strategyResult(_ strategy: String = "compiled", checksum: UInt64 = 0xabc, allocations: Double = 0, instructions: Double? = 1000,
                    samples: [Double]? = [10, 10.1, 9.9, 10.05, 9.95]) -> StrategyResult {
    StrategyResult(
        key: RowKey(strategy: strategy),
        matches: MatchFigures(events: 100, checksum: MatchChecksum(value: checksum, matches: 5), candidates: 100),
        timing: TimingFigures(eventsPerSecond: 1e8, nsPerEvent: .init(mean: 10, p50: 10, p90: 11, p99: 12, p999: 13, max: 20),
                              cpuSeconds: 1, wallSeconds: 1, nsPerEventSamples: samples),
        memory: MemoryFigures(allocationsPerEvent: allocations, bytesPerEvent: 0, buildSeconds: 0),
        publishing: nil, latencyNs: nil, ratios: RatioFigures(), instructionsPerEvent: instructions)
}
