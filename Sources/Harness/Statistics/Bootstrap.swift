/// Bootstrap confidence intervals over repetitions (and, between builds, runs): resample with replacement,
/// recompute the statistic, and take the 2.5th and 97.5th percentiles of what it gave. Seeded, so a
/// results file is reproducible from its samples.
package enum Bootstrap {
    package static let resamples = 2000

    /// The 95 % percentile interval of `statistic`; nil with fewer than two samples (nothing to resample).
    package static func interval(_ samples: [Double], statistic: ([Double]) -> Double) -> [Double]? {
        guard samples.count >= 2 else { return nil }
        var draw = samples
        return percentiles { rng in
            for k in draw.indices { draw[k] = samples[rng.below(samples.count)] }
            return statistic(draw)
        }
    }

    /// The 95 % interval of statistic(b) / statistic(a) for two builds' runs, each a list of repetitions.
    /// Two-stage: a resample draws runs with replacement, then repetitions within each drawn run. Runs
    /// are the independent unit: repetitions of one process share its layout and the host's minute, and
    /// whole runs of one binary differ by several percent; resampling repetitions alone would give an
    /// interval as narrow as if that never happened. nil when either build has fewer than two samples.
    package static func ratioInterval(_ a: [[Double]], _ b: [[Double]], statistic: ([Double]) -> Double) -> [Double]? {
        let a = a.filter { !$0.isEmpty }, b = b.filter { !$0.isEmpty }
        guard a.joined().count >= 2, b.joined().count >= 2 else { return nil }
        var drawA: [Double] = [], drawB: [Double] = []
        func draw(_ runs: [[Double]], into out: inout [Double], _ rng: inout ResampleRandom) {
            out.removeAll(keepingCapacity: true)
            for _ in runs.indices {
                let run = runs[rng.below(runs.count)]
                for _ in run.indices { out.append(run[rng.below(run.count)]) }
            }
        }
        return percentiles { rng in
            draw(a, into: &drawA, &rng)
            draw(b, into: &drawB, &rng)
            return statistic(drawB) / statistic(drawA)
        }
    }

    /// The 2.5th and 97.5th percentiles of `resamples` values of `resample`, drawn from one seeded generator.
    static func percentiles(_ resample: (inout ResampleRandom) -> Double) -> [Double] {
        var rng = ResampleRandom(seed: 0x5EED_B007)
        var values = (0..<resamples).map { _ in resample(&rng) }
        values.sort()
        return [values[Int(0.025 * Double(resamples - 1))], values[Int(0.975 * Double(resamples - 1))]]
    }

    package static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }
}
