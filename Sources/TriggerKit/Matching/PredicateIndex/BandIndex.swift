/// Conditions bounded on both sides on one property (`lo < v < hi`, inclusive or not), sorted by
/// lower bound: a value `v` can only fall in bands whose lower bound is in `[v - maxWidth, v]`,
/// found by two binary searches, so a probe visits a narrow slice instead of half the list.
struct BandIndex: Sendable {
    var lower: [Double] = []
    var upper: [Double] = []
    var entries: [Int32] = []
    var maxWidth = 0.0

    init(_ bands: [(Double, Double, Int32)]) {
        let sorted = bands.sorted { $0.0 < $1.0 }
        lower = sorted.map(\.0)
        upper = sorted.map(\.1)
        entries = sorted.map(\.2)
        // Rounded up: a width rounded to nearest can be below the true `upper - lower` (1e9 - -1e-9
        // rounds to 1e9), and the window would then start above that band's lower bound.
        maxWidth = sorted.map { ($0.1 - $0.0).nextUp }.max() ?? 0
    }

    @inline(__always)
    func forEachCandidate(tag: UInt8, bits: UInt64, _ body: (Int32) -> Void) {
        guard let v = RangeLists.exactProbe(tag: tag, bits: bits), maxWidth.isFinite, maxWidth >= 0 else {
            for e in entries { body(e) }
            return
        }
        // Bands with lower <= v (inclusive bounds are decided by full evaluation) and lower >= v - maxWidth.
        // Rounded down for the same reason: the window's start must not pass any lower bound it covers.
        let first = RangeLists.bound(lower, (v - maxWidth).nextDown, orEqual: false)
        let end = RangeLists.bound(lower, v, orEqual: true)
        var k = first
        while k < end {
            if upper[k] >= v { body(entries[k]) }
            k += 1
        }
    }
}
