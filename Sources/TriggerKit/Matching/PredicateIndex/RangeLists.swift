/// Conditions filed under a numeric range predicate on one property, as four lists sorted by threshold.
struct RangeLists: Sendable {
    struct Sorted: Sendable {
        var thresholds: [Double] = []
        var entries: [Int32] = []
    }

    var gt = Sorted(), gte = Sorted(), lt = Sorted(), lte = Sorted()

    /// The predicate's threshold as an exact Double, or nil when it has none (huge integers).
    static func threshold(_ p: PredicateProgram.Predicate) -> Double? { exactProbe(tag: p.constTag, bits: p.constBits) }

    struct Builder {
        var lists: [PredicateProgram.Code: [(Double, Int32)]] = [:]
        mutating func add(_ p: PredicateProgram.Predicate, entry: Int32) {
            lists[p.code, default: []].append((RangeLists.threshold(p)!, entry))
        }
        func build() -> RangeLists {
            func sorted(_ code: PredicateProgram.Code) -> Sorted {
                let l = (lists[code] ?? []).sorted { $0.0 < $1.0 }
                return Sorted(thresholds: l.map(\.0), entries: l.map(\.1))
            }
            return RangeLists(gt: sorted(.numGt), gte: sorted(.numGte), lt: sorted(.numLt), lte: sorted(.numLte))
        }
    }

    /// First position whose threshold is not below `v` (or, with `orEqual`, above `v`).
    @inline(__always)
    static func bound(_ a: [Double], _ v: Double, orEqual: Bool) -> Int {
        a.withUnsafeBufferPointer { $0.baseAddress.map { bound($0, from: 0, to: a.count, v, orEqual: orEqual) } ?? 0 }
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
    func forEachCandidate(tag: UInt8, bits: UInt64, _ body: (Int32) -> Void) {
        guard let v = Self.exactProbe(tag: tag, bits: bits) else {
            for e in gt.entries { body(e) }
            for e in gte.entries { body(e) }
            for e in lt.entries { body(e) }
            for e in lte.entries { body(e) }
            return
        }
        // gt c holds when c < v; gte when c <= v; lt when c > v; lte when c >= v.
        for k in 0..<Self.bound(gt.thresholds, v, orEqual: false) { body(gt.entries[k]) }
        for k in 0..<Self.bound(gte.thresholds, v, orEqual: true) { body(gte.entries[k]) }
        for k in Self.bound(lt.thresholds, v, orEqual: true)..<lt.entries.count { body(lt.entries[k]) }
        for k in Self.bound(lte.thresholds, v, orEqual: false)..<lte.entries.count { body(lte.entries[k]) }
    }
}
