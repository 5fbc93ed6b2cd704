import TriggerKit

extension Runner {
    /// Speed-up versus reference and ratio to floor, comparing like with like (same threads, publication).
    static func addRatios(_ results: inout [StrategyResult]) {
        let all = results
        for k in results.indices {
            let r = results[k]
            let peer = { (name: String) in
                all.first { $0.strategy == name && $0.threads == r.threads && $0.publication == r.publication }
                    ?? all.first { $0.strategy == name }
            }
            if let ref = peer(ReferenceMatcher.strategyName) {
                results[k].speedupVsReference = ratio(ref, r)
                results[k].speedupVsReferenceCi95 = Bootstrap.interval(pairedRatios(ref, r), statistic: MannWhitney.median)
            }
            if let floor = peer(FloorMatcher.strategyName) {
                results[k].ratioToFloor = ratio(r, floor)
                results[k].ratioToFloorCi95 = Bootstrap.interval(pairedRatios(r, floor), statistic: MannWhitney.median)
            }
        }
    }

    /// `a`'s time per event over `b`'s. With repetitions, the median over repetitions of the ratio within
    /// each: repetitions are interleaved, so repetition k of both ran within seconds of each other, and a
    /// slow spell of a shared host that hits one repetition hits both sides of its ratio (the ratio of
    /// the means let one slow repetition of either side move it). Without, the ratio of the means.
    static func ratio(_ a: StrategyResult, _ b: StrategyResult) -> Double {
        MannWhitney.median(pairedRatios(a, b))
    }

    /// `a`'s ns/event over `b`'s within each repetition, when both ran the same repetitions of one run;
    /// else the one ratio of the means.
    static func pairedRatios(_ a: StrategyResult, _ b: StrategyResult) -> [Double] {
        guard let x = a.nsPerEventSamples, let y = b.nsPerEventSamples, x.count == y.count, !x.isEmpty else {
            return [a.nsPerEvent.mean / b.nsPerEvent.mean]
        }
        return zip(x, y).map { $0 / $1 }
    }
}
