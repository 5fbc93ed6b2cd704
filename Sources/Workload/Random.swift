/// xoshiro256** seeded through SplitMix64: fast, and the same sequence on every machine for a seed.
package struct DeterministicRandom: RandomNumberGenerator {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    package init(seed: UInt64) {
        var x = seed
        func splitmix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s = (splitmix(), splitmix(), splitmix(), splitmix())
    }

    package mutating func next() -> UInt64 {
        let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = s.3 << 45 | s.3 >> 19
        return result
    }

    /// Uniform in `0..<n` (Lemire's multiply-shift; deterministic, unlike the stdlib's range API across versions).
    package mutating func below(_ n: Int) -> Int {
        Int((UInt64(n).multipliedFullWidth(by: next())).high)
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    package mutating func chance(_ p: Double) -> Bool { unit() < p }

    package mutating func between(_ lo: Int, _ hi: Int) -> Int { lo + below(hi - lo + 1) }
}

/// Zipf-distributed ranks `0..<n` with exponent `s`, sampled by binary search over the CDF.
package struct ZipfSampler: Sendable {
    let cdf: [Double]

    package init(count n: Int, exponent s: Double) {
        var acc = 0.0
        var cdf = [Double]()
        cdf.reserveCapacity(n)
        for k in 1...max(n, 1) {
            acc += 1 / pow(Double(k), s)
            cdf.append(acc)
        }
        self.cdf = cdf.map { $0 / acc }
    }

    package func sample(_ rng: inout DeterministicRandom) -> Int {
        let u = rng.unit()
        var lo = 0, hi = cdf.count - 1
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cdf[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

import Foundation
