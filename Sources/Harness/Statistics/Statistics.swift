/// Sample statistics the harness reports and resamples, apart from any one test that uses them.
package enum Statistics {
    /// The median of a non-empty sample.
    package static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The `p` quantile of sorted values, interpolated between the two nearest ranks.
    package static func quantile(sorted s: [Double], _ p: Double) -> Double {
        let rank = p * Double(s.count - 1)
        let lo = Int(rank.rounded(.down)), hi = min(lo + 1, s.count - 1)
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
    }
}
