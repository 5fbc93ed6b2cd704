import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum): do two samples of timings come from the same
/// distribution? Distribution-free, so it suits skewed, outlier-prone wall-clock samples.
package enum MannWhitney {
    /// U of the first sample and the two-sided p-value. Exact (by counting arrangements) when
    /// n1 · n2 ≤ 400 and there are no ties; otherwise the normal approximation with tie correction.
    package static func test(_ x: [Double], _ y: [Double]) -> (u: Double, p: Double) {
        let n1 = x.count, n2 = y.count
        guard n1 > 0, n2 > 0 else { return (0, 1) }
        let pooled = (x.map { ($0, 0) } + y.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i...j { ranks[k] = rank }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        let rankSumX = zip(pooled, ranks).filter { $0.0.1 == 0 }.reduce(0.0) { $0 + $1.1 }
        let u = rankSumX - Double(n1 * (n1 + 1)) / 2
        if tieTerm == 0 && n1 * n2 <= 400 {
            return (u, exactTwoSided(u: Int(u.rounded()), n1: n1, n2: n2))
        }
        let n = Double(n1 + n2)
        let mean = Double(n1 * n2) / 2
        let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return (u, 1) }
        let z = (abs(u - mean) - 0.5) / variance.squareRoot()
        return (u, min(1, erfc(max(z, 0) / 2.squareRoot())))
    }

    /// The least two-sided p-value any samples of these sizes can give (both extreme arrangements):
    /// with 3 vs 3 it is 0.1, with 5 vs 5 0.0079, so a small sample can never pass a strict alpha.
    package static func smallestPossibleP(n1: Int, n2: Int) -> Double {
        var arrangements = 1.0  // C(n1 + n2, n1)
        for k in 0..<min(n1, n2) { arrangements = arrangements * Double(n1 + n2 - k) / Double(k + 1) }
        return min(1, 2 / arrangements)
    }

    /// P(U ≤ u or U ≥ n1·n2 − u) under the null hypothesis, from the count of arrangements with each U.
    static func exactTwoSided(u: Int, n1: Int, n2: Int) -> Double {
        // counts[j][v]: arrangements of i x's and j y's with U = v, built up over i.
        let maxU = n1 * n2
        var previous = [[Double]](repeating: [1], count: n2 + 1)  // i = 0: U is 0 for any j
        if n1 > 0 {
            for i in 1...n1 {
                var current = [[Double]](repeating: [], count: n2 + 1)
                for j in 0...n2 {
                    var row = [Double](repeating: 0, count: i * j + 1)
                    // The largest element is an x (it beats all j y's: U grows by j) or a y.
                    for (v, c) in previous[j].enumerated() { row[v + j] += c }
                    if j > 0 { for (v, c) in current[j - 1].enumerated() { row[v] += c } }
                    current[j] = row
                }
                previous = current
            }
        }
        let counts = previous[n2]
        let total = counts.reduce(0, +)
        let low = min(u, maxU - u)
        let tail = counts[0...max(0, min(low, maxU))].reduce(0, +)
        return min(1, 2 * tail / total)
    }
}
