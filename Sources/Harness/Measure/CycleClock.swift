import CCycleCounter
import Foundation

/// The CPU's tick counter as a clock for single events: how many nanoseconds a tick is (calibrated
/// against the monotonic clock) and what a reading itself costs (subtracted from every sample).
package struct CycleClock: Sendable {
    package let nanosecondsPerTick: Double
    /// The least a begin/end pair reads with nothing between them.
    package let overheadTicks: UInt64
    /// The step the counter advances by: every reading differs from another by a multiple of it
    /// (a virtualised counter may step by many ticks at once).
    package let resolutionTicks: UInt64
    package let source: String

    package var resolutionNanoseconds: Double { Double(resolutionTicks) * nanosecondsPerTick }

    package var overheadNanoseconds: Double { Double(overheadTicks) * nanosecondsPerTick }

    @inline(__always) static func begin() -> UInt64 { trigger_bench_ticks_begin() }
    @inline(__always) static func end() -> UInt64 { trigger_bench_ticks_end() }

    /// Calibrates: the best of three 10 ms windows of ticks against `Clock.now()`, and the least of
    /// 20,000 empty readings as the overhead.
    package static func calibrate() -> CycleClock {
        var best = Double.infinity
        // The counter's step: the gcd of the tick differences between readings taken at irregular
        // moments (each after a monotonic-clock call, sometimes an interrupt). A fine counter's
        // differences soon share no factor but 1; a virtualised one's stay multiples of its step.
        var step: UInt64 = 0
        for _ in 0..<3 {
            let n0 = Clock.now(), t0 = begin()
            var last = t0
            while Clock.now() &- n0 < 10_000_000 {
                let t = end()
                if t > last {
                    step = gcd(step, t - last)
                    last = t
                }
            }
            let t1 = end(), n1 = Clock.now()
            guard t1 > t0 else { continue }
            // The window with the most ticks per ns is the one least disturbed by a reschedule between
            // the two readings of each pair.
            best = min(best, Double(n1 &- n0) / Double(t1 &- t0))
        }
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
            step = t1 &- t0
        }
        return CycleClock(nanosecondsPerTick: best, overheadTicks: overhead == .max ? 0 : overhead, resolutionTicks: max(step, 1),
                          source: String(cString: trigger_bench_ticks_source()))
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
