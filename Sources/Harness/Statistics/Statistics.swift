/// Sample statistics the harness reports and resamples, apart from any one test that uses them.
package enum Statistics {
    /// The median of a non-empty sample.
    package static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
