import TriggerKit

/// Where result rows are made: each measured row with its ratios to `reference` and `floor`.
package enum ResultRows {
    /// The rows of a run, in the order measured. A ratio compares like with like: the peer with the
    /// same threads and publication, else the peer's first row.
    package static func assemble(_ measured: [MeasuredRow]) -> [StrategyResult] {
        let timings = Dictionary(measured.map { ($0.key, $0.timing) }, uniquingKeysWith: { first, _ in first })
        let firstOf = Dictionary(measured.map { ($0.key.strategy, $0.timing) }, uniquingKeysWith: { first, _ in first })
        return measured.map { row in
            let peer = { (name: String) in timings[row.key.with(strategy: name)] ?? firstOf[name] }
            var ratios = RatioFigures()
            if let ref = peer(ReferenceMatcher.strategyName) {
                ratios.speedupVsReference = ratio(ref, row.timing)
                ratios.speedupVsReferenceCi95 = Bootstrap.interval(pairedRatios(ref, row.timing), statistic: Statistics.median)
            }
            if let floor = peer(FloorMatcher.strategyName) {
                ratios.ratioToFloor = ratio(row.timing, floor)
                ratios.ratioToFloorCi95 = Bootstrap.interval(pairedRatios(row.timing, floor), statistic: Statistics.median)
            }
            var result = StrategyResult(key: row.key, matches: row.matches, timing: row.timing, memory: row.memory,
                                        publishing: row.publishing, latencyNs: row.latencyNs, ratios: ratios)
            result.coldLatencyNs = row.coldLatencyNs
            result.passes = row.passes
            return result
        }
    }

    /// `a`'s time per event over `b`'s. With repetitions, the median over repetitions of the ratio within
    /// each: repetitions are interleaved, so repetition k of both ran within seconds of each other, and a
    /// slow spell of a shared host that hits one repetition hits both sides of its ratio (the ratio of
    /// the means let one slow repetition of either side move it). Without, the ratio of the means.
    package static func ratio(_ a: TimingFigures, _ b: TimingFigures) -> Double {
        Statistics.median(pairedRatios(a, b))
    }

    /// `a`'s ns/event over `b`'s within each repetition, when both ran the same repetitions of one run;
    /// else the one ratio of the means.
    static func pairedRatios(_ a: TimingFigures, _ b: TimingFigures) -> [Double] {
        guard let x = a.nsPerEventSamples, let y = b.nsPerEventSamples, x.count == y.count, !x.isEmpty else {
            return [a.nsPerEvent.mean / b.nsPerEvent.mean]
        }
        return zip(x, y).map { $0 / $1 }
    }
}
