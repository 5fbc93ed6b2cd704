/// Conditions bounded on both sides on one property (`lo < v < hi`, inclusive or not): a run
/// `start..<end` of the crowd's band pools (`CrowdIndex.Raw.bandLower`, `bandUpper`, `bandEntries`)
/// sorted by lower bound. A value `v` can only fall in bands whose lower bound is in
/// `[v - maxWidth, v]`, found by two binary searches, so a probe visits a narrow slice instead of
/// half the list.
struct BandIndex: Sendable, BitwiseCopyable {
    let start: Int32, end: Int32
    let maxWidth: Double

    /// Appends `bands` (lower, upper, entry) to the pools and returns where they are.
    init(_ bands: [(Double, Double, Int32)], lower: inout [Double], upper: inout [Double], entries: inout [Int32]) {
        start = Int32(entries.count)
        for (lo, hi, e) in bands.sorted(by: { $0.0 < $1.0 }) {
            lower.append(lo)
            upper.append(hi)
            entries.append(e)
        }
        end = Int32(entries.count)
        // Rounded up: a width rounded to nearest can be below the true `upper - lower` (1e9 - -1e-9
        // rounds to 1e9), and the window would then start above that band's lower bound.
        maxWidth = bands.map { ($0.1 - $0.0).nextUp }.max() ?? 0
    }

    @inline(__always)
    func forEachCandidate(lower: UnsafePointer<Double>, upper: UnsafePointer<Double>, entries: UnsafePointer<Int32>,
                          tag: UInt8, bits: UInt64, _ body: (Int32) -> Void) {
        let start = Int(self.start), end = Int(self.end)
        guard let v = RangeLists.exactProbe(tag: tag, bits: bits), maxWidth.isFinite, maxWidth >= 0 else {
            for k in start..<end { body(entries[k]) }
            return
        }
        // Bands with lower <= v (inclusive bounds are decided by full evaluation) and lower >= v - maxWidth.
        // Rounded down for the same reason: the window's start must not pass any lower bound it covers.
        var k = RangeLists.bound(lower, from: start, to: end, (v - maxWidth).nextDown, orEqual: false)
        let past = RangeLists.bound(lower, from: k, to: end, v, orEqual: true)
        while k < past {
            if upper[k] >= v { body(entries[k]) }
            k &+= 1
        }
    }
}
