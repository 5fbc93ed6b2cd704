/// The bootstrap's own seeded stream (SplitMix64): statistics need reproducible draws, not the
/// workload generator's, so this folder does not depend on Workload. Since 2026-11-28 (efc7b5d);
/// intervals computed before from the same samples used another stream and differ slightly.
struct ResampleRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// Uniform in 0..<n (n > 0): the high word of a 64 × 64-bit product (bias below 2⁻⁴⁰ at these n).
    mutating func below(_ n: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)).multipliedFullWidth(by: UInt64(n)).high)
    }
}
