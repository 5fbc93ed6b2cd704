/// Conditions filed under a numeric range predicate on one property: four runs of the crowd's range
/// pools (`CrowdIndex.Raw.rangeThresholds`, `rangeEntries`), one per operator, each sorted by
/// threshold. Plain offsets, so the crowd's pools hold every key's lists in two allocations.
struct RangeLists: Sendable, BitwiseCopyable {
    /// The runs are `gt..<gte`, `gte..<lt`, `lt..<lte` and `lte..<end`.
    let gt: Int32, gte: Int32, lt: Int32, lte: Int32, end: Int32

    /// The predicate's threshold as an exact Double, or nil when it has none (huge integers).
    static func threshold(_ p: PredicateProgram.Predicate) -> Double? { exactProbe(tag: p.constTag, bits: p.constBits) }

    struct Builder {
        var lists: [PredicateProgram.Code: [(Double, Int32)]] = [:]
        mutating func add(_ p: PredicateProgram.Predicate, entry: Int32) {
            lists[p.code, default: []].append((RangeLists.threshold(p)!, entry))
        }

        /// Appends the four runs to the pools and returns where they are.
        func build(thresholds: inout [Double], entries: inout [Int32]) -> RangeLists {
            var starts: [Int32] = []
            for code in [PredicateProgram.Code.numGt, .numGte, .numLt, .numLte] {
                starts.append(Int32(entries.count))
                for (t, e) in (lists[code] ?? []).sorted(by: { $0.0 < $1.0 }) {
                    thresholds.append(t)
                    entries.append(e)
                }
            }
            return RangeLists(gt: starts[0], gte: starts[1], lt: starts[2], lte: starts[3], end: Int32(entries.count))
        }
    }

    /// The first position in `first..<end` of the sorted `thresholds` whose threshold is not below `v`
    /// (or, with `orEqual`, above `v`); `end` when none. Bounds, not a `Range`: building one checks
    /// its order, a trap test per probe.
    @inline(__always)
    static func bound(_ thresholds: UnsafePointer<Double>, from first: Int, to end: Int, _ v: Double, orEqual: Bool) -> Int {
        var lo = first, hi = end
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if thresholds[mid] < v || (orEqual && thresholds[mid] == v) { lo = mid &+ 1 } else { hi = mid }
        }
        return lo
    }

    /// A number event value as the Double the thresholds are compared with, or nil for an integer
    /// beyond 2^53 (not exactly representable: the lists cannot decide it, every entry is a candidate).
    @inline(__always)
    static func exactProbe(tag: UInt8, bits: UInt64) -> Double? {
        guard tag == ValueTag.int.rawValue else { return Double(bitPattern: bits) }
        let i = Int64(bitPattern: bits)
        return i.magnitude <= 1 << 53 ? Double(i) : nil
    }

    /// Calls `body` with every entry whose range predicate may hold for the value; all entries
    /// when the value is an integer too large to compare exactly as a Double.
    @inline(__always)
    func forEachCandidate(thresholds: UnsafePointer<Double>, entries: UnsafePointer<Int32>, tag: UInt8, bits: UInt64,
                          _ body: (Int32) -> Void) {
        let gt = Int(self.gt), gte = Int(self.gte), lt = Int(self.lt), lte = Int(self.lte), end = Int(self.end)
        guard let v = Self.exactProbe(tag: tag, bits: bits) else {
            for k in gt..<end { body(entries[k]) }
            return
        }
        // gt c holds when c < v; gte when c <= v; lt when c > v; lte when c >= v.
        for k in gt..<Self.bound(thresholds, from: gt, to: gte, v, orEqual: false) { body(entries[k]) }
        for k in gte..<Self.bound(thresholds, from: gte, to: lt, v, orEqual: true) { body(entries[k]) }
        for k in Self.bound(thresholds, from: lt, to: lte, v, orEqual: true)..<lte { body(entries[k]) }
        for k in Self.bound(thresholds, from: lte, to: end, v, orEqual: false)..<end { body(entries[k]) }
    }
}
