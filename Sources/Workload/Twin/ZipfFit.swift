import Foundation

/// A Zipf law fitted to counts ranked by frequency, and how far the data is from it.
enum ZipfFit {
    /// The exponent s of frequency ∝ rank^−s by least squares on log–log (ranks with a count), and
    /// the Kolmogorov–Smirnov distance between the ranks' distribution and Zipf(s) over as many ranks.
    static func fit(_ sortedCounts: [Int]) -> (exponent: Double, ks: Double) {
        let counts = sortedCounts.filter { $0 > 0 }
        guard counts.count >= 2 else { return (0, 0) }
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for (r, c) in counts.enumerated() {
            let x = log(Double(r + 1)), y = log(Double(c))
            sx += x; sy += y; sxx += x * x; sxy += x * y
        }
        let n = Double(counts.count)
        let denominator = n * sxx - sx * sx
        let s = denominator > 0 ? max(0, min(10, -(n * sxy - sx * sy) / denominator)) : 0
        return (s, ks(counts, exponent: s))
    }

    static func ks(_ counts: [Int], exponent s: Double) -> Double {
        let total = Double(counts.reduce(0, +))
        var norm = 0.0
        for r in 1...counts.count { norm += pow(Double(r), -s) }
        var empirical = 0.0, model = 0.0, worst = 0.0
        for (r, c) in counts.enumerated() {
            empirical += Double(c) / total
            model += pow(Double(r + 1), -s) / norm
            worst = max(worst, abs(empirical - model))
        }
        return min(1, worst)
    }
}
