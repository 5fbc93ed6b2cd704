/// Samples outside Tukey's fences, as criterion classifies its samples: mild beyond 1.5 interquartile
/// ranges from the nearer quartile, severe beyond 3. The samples here are a row's timed batches, each
/// as its time over the median time of the same batch of events in the row's other loops and
/// repetitions (`ReaderWorker.disturbance`): a batch of costly events is not an outlier, a batch that
/// was preempted or interrupted is a high one.
package struct OutlierCounts: Codable, Sendable, Equatable {
    /// Samples classified.
    package var samples: Int
    package var lowSevere = 0, lowMild = 0, highMild = 0, highSevere = 0

    package init(samples: Int, lowSevere: Int = 0, lowMild: Int = 0, highMild: Int = 0, highSevere: Int = 0) {
        (self.samples, self.lowSevere, self.lowMild, self.highMild, self.highSevere) = (samples, lowSevere, lowMild, highMild, highSevere)
    }

    package var total: Int { lowSevere + lowMild + highMild + highSevere }
    package var severe: Int { lowSevere + highSevere }

    static let leastSpread = 0.01

    package static func classify(_ values: [Double]) -> OutlierCounts {
        guard values.count >= 4 else { return OutlierCounts(samples: values.count) }
        let sorted = values.sorted()
        let q1 = Statistics.quantile(sorted: sorted, 0.25), q3 = Statistics.quantile(sorted: sorted, 0.75)
        // An interquartile range under 1 % of the middle is taken as 1 %: batches all timed to the
        // clock's step would otherwise make every value off the median a severe outlier.
        let iqr = max(q3 - q1, leastSpread * abs(q1 + q3) / 2)
        var c = OutlierCounts(samples: values.count)
        for v in sorted {
            if v < q1 - 3 * iqr { c.lowSevere += 1 } else if v < q1 - 1.5 * iqr { c.lowMild += 1 }
            else if v > q3 + 3 * iqr { c.highSevere += 1 } else if v > q3 + 1.5 * iqr { c.highMild += 1 }
        }
        return c
    }
}
