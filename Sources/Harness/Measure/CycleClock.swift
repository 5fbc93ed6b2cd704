import CCycleCounter
import Foundation

/// The CPU's tick counter as a clock for single events: how many nanoseconds a tick is (calibrated
/// against the monotonic clock) and what a reading itself costs (subtracted from every sample).
package struct CycleClock: Sendable {
    package let nanosecondsPerTick: Double
    /// The least a begin/end pair reads with nothing between them.
    package let overheadTicks: UInt64
    /// The step the counter advances by: every reading differs from another by about a multiple of it
    /// (a virtualised counter may step by many ticks at once, and not by a whole number of them).
    package let resolutionTicks: Double
    package let source: String

    package var resolutionNanoseconds: Double { resolutionTicks * nanosecondsPerTick }

    package var overheadNanoseconds: Double { Double(overheadTicks) * nanosecondsPerTick }

    /// One reading pair's ticks less the overhead. A sample below the overhead is the timer's own
    /// jitter: the least recordable. A reading that went backwards (a migration between cores with
    /// unsynchronised counters) stays huge, beyond a histogram's range, and is not recorded.
    @inline(__always) func sample(_ ticks: UInt64) -> UInt64 { ticks > overheadTicks ? ticks - overheadTicks : 1 }

    @inline(__always) static func begin() -> UInt64 { trigger_bench_ticks_begin() }
    @inline(__always) static func end() -> UInt64 { trigger_bench_ticks_end() }

    /// Calibrates: the best of three 10 ms windows of ticks against `Clock.now()`, and the least of
    /// 20,000 empty readings as the overhead.
    package static func calibrate() -> CycleClock {
        var best = Double.infinity
        // Tick differences between readings taken at irregular moments (each after a monotonic-clock
        // call, sometimes an interrupt): every one is a multiple of the counter's step.
        var differences: [UInt64] = []
        differences.reserveCapacity(1 << 16)
        for _ in 0..<3 {
            let n0 = Clock.now(), t0 = begin()
            var last = t0
            while Clock.now() &- n0 < 10_000_000 {
                let t = end()
                if t > last {
                    if differences.count < 1 << 16 { differences.append(t - last) }
                    last = t
                }
            }
            let t1 = end(), n1 = Clock.now()
            guard t1 > t0 else { continue }
            // The window with the most ticks per ns is the one least disturbed by a reschedule between
            // the two readings of each pair.
            best = min(best, Double(n1 &- n0) / Double(t1 &- t0))
        }
        var step = Self.step(of: differences)
        if !best.isFinite { best = 1 }
        var overhead = UInt64.max
        for _ in 0..<20_000 {
            let t0 = begin()
            let t1 = end()
            overhead = min(overhead, t1 &- t0)
        }
        if step == 0 {
            // No reading advanced the counter: it steps more slowly than a reading; spin to a step.
            let t0 = begin()
            var t1 = end()
            while t1 == t0 { t1 = end() }
            step = Double(t1 &- t0)
        }
        return CycleClock(nanosecondsPerTick: best, overheadTicks: overhead == .max ? 0 : overhead, resolutionTicks: max(step, 1),
                          source: String(cString: trigger_bench_ticks_source()))
    }

    /// The counter's step, in ticks: the gap between the clusters the differences fall in. Differences
    /// seen in at least 0.5 % of readings are the common ones; runs of them one tick apart form a
    /// cluster (a counter that steps by 24.5 ticks shows 49, then 73 and 74, then 98); the step is the
    /// median gap between neighbouring clusters' weighted centres. A fine counter's differences form
    /// one unbroken run: no gap, a step of one tick. (A gcd of the differences finds no common factor in
    /// a step that is not a whole number of ticks, and falls to 1 or 2 when a few land off the grid.)
    package static func step(of differences: [UInt64]) -> Double {
        guard !differences.isEmpty else { return 0 }
        var counts: [UInt64: Int] = [:]
        for d in differences { counts[d, default: 0] += 1 }
        let common = counts.filter { Double($0.value) >= Double(differences.count) * 0.005 }.sorted { $0.key < $1.key }
        var centres: [Double] = []
        var run: [(value: UInt64, count: Int)] = []
        func close() {
            guard !run.isEmpty else { return }
            let weight = run.reduce(0) { $0 + $1.count }
            centres.append(run.reduce(0.0) { $0 + Double($1.value) * Double($1.count) } / Double(weight))
            run = []
        }
        for (value, count) in common {
            if let last = run.last, value > last.value + 1 { close() }
            run.append((value, count))
        }
        close()
        guard centres.count > 1 else { return 1 }
        let gaps = zip(centres, centres.dropFirst()).map { $1 - $0 }.sorted()
        return max(1, gaps[gaps.count / 2])
    }
}
