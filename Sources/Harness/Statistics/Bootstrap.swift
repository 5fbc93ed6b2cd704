import Workload

/// Bootstrap confidence intervals over a run's repetitions: resample the samples with replacement,
/// recompute the statistic, and take the 2.5th and 97.5th percentiles of what it gave. Seeded, so a
/// results file is reproducible from its samples.
public enum Bootstrap {
    public static let resamples = 2000

    /// The 95 % percentile interval of `statistic`; nil with fewer than two samples (nothing to resample).
    public static func interval(_ samples: [Double], statistic: ([Double]) -> Double) -> [Double]? {
        guard samples.count >= 2 else { return nil }
        var rng = DeterministicRandom(seed: 0x5EED_B007)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        var draw = [Double](repeating: 0, count: samples.count)
        for _ in 0..<resamples {
            for k in draw.indices { draw[k] = samples[rng.below(samples.count)] }
            values.append(statistic(draw))
        }
        values.sort()
        return [values[Int(0.025 * Double(resamples - 1))], values[Int(0.975 * Double(resamples - 1))]]
    }

    /// The 95 % interval of statistic(b) / statistic(a), resampling the two unpaired samples (two builds'
    /// runs) independently; nil when either has fewer than two samples.
    public static func ratioInterval(_ a: [Double], _ b: [Double], statistic: ([Double]) -> Double) -> [Double]? {
        guard a.count >= 2, b.count >= 2 else { return nil }
        var rng = DeterministicRandom(seed: 0x5EED_B007)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        var drawA = a, drawB = b
        for _ in 0..<resamples {
            for k in drawA.indices { drawA[k] = a[rng.below(a.count)] }
            for k in drawB.indices { drawB[k] = b[rng.below(b.count)] }
            values.append(statistic(drawB) / statistic(drawA))
        }
        values.sort()
        return [values[Int(0.025 * Double(resamples - 1))], values[Int(0.975 * Double(resamples - 1))]]
    }

    public static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }
}
