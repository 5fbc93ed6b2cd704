/// How `predicate-index` answers one bucket (docs/design.md, "Which index a bucket gets"). Every
/// bucket's plan is chosen by `BucketPlan.choose`, and the matcher is built from the plans.
package enum BucketPlan: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Every entry screened and evaluated, as `compiled` does.
    case scan
    /// Each condition filed under one access predicate (`CrowdIndex`): an event probes with its
    /// properties and evaluates what the probes return.
    case crowd
    /// Clauses marked by postings (`CountingIndex`): a condition whose clauses are all marked matches
    /// without evaluation.
    case counted
    /// Range subscriptions cut into cells (`IntervalCells`): bitsets decide them without evaluation.
    case cells

    package var description: String {
        switch self {
        case .scan: "scan"
        case .crowd: "crowd"
        case .counted: "counted"
        case .cells: "cells"
        }
    }

    /// The sizes from which a bucket is considered for each index. Tests lower them to reach an
    /// index on small corpora; `requirePruning: false` indexes every crowd-sized bucket even when
    /// `CrowdIndex.pays` says scanning is cheaper.
    package struct Thresholds: Sendable {
        /// Below this, the probes (hash lookups per property) cost more than screening the bucket.
        package var crowd = 32
        /// Below this, marking postings costs more than screening (docs/design.md, "Tried and not kept").
        package var counted = 256
        /// Left out of `init` on purpose: it stays at 256 where tests lower the others.
        package var cells = 256
        package var requirePruning = true

        package init(crowd: Int = 32, counted: Int = 256, requirePruning: Bool = true) {
            self.crowd = crowd
            self.counted = counted
            self.requirePruning = requirePruning
        }

        package static let standard = Thresholds()
    }

    /// The plan of the bucket whose entries are `run[entries]`, and, for a crowd, the access
    /// statistics its index is built with. In this order, the first that pays:
    /// 1. cells, when most conditions are range subscriptions (`IntervalCells.pays`): a crowd index
    ///    prunes on one attribute and leaves the rest to evaluate, which on their shape costs more
    ///    than the scan it replaces;
    /// 2. a crowd index, when its probes return at most half the bucket (`CrowdIndex.pays`);
    /// 3. counting, when most conditions have few enough clauses to mark (`CountingIndex.pays`);
    /// 4. a scan.
    /// Only classified, never built: building and dropping an index allocated for every entry (the
    /// default set has crowds that do not prune).
    static func choose(entries: Range<Int>, of run: FrozenBuffer<PredicateProgram.Entry>, program: PredicateProgram,
                       thresholds: Thresholds) -> (plan: BucketPlan, statistics: AccessStatistics?) {
        let size = entries.count
        if size >= thresholds.cells, IntervalCells.pays(entries: entries, of: run, program: program) { return (.cells, nil) }
        if size >= thresholds.crowd {
            var statistics = AccessStatistics(entries: entries, of: run, program: program)
            if !thresholds.requirePruning || CrowdIndex.pays(entries: entries, of: run, program: program, statistics: &statistics) {
                return (.crowd, statistics)
            }
        }
        if size >= thresholds.counted, CountingIndex.pays(entries: entries, of: run) { return (.counted, nil) }
        return (.scan, nil)
    }
}

/// A bucket's plan and the position of its index among those of its plan, in one word the probe
/// loads per bucket: negative for a scan (so a scanned bucket tests only the sign, as before any index
/// existed: a second test there cost every scanned event instructions), else `position << 2 | plan`.
/// A scan is `Int32.min`, whose low bits also read as `.scan`.
struct PlannedBucket: Sendable, BitwiseCopyable, Equatable {
    private let raw: Int32

    static let scanned = PlannedBucket(raw: .min)

    private init(raw: Int32) { self.raw = raw }

    init(_ plan: BucketPlan, position: Int) {
        precondition(plan != .scan && (0..<1 << 29).contains(position), "a scan has no index; an index position outside 0..<2^29")
        raw = Int32(position) << 2 | Int32(plan.rawValue)
    }

    @inline(__always) var isScanned: Bool { raw < 0 }
    /// For a bucket that is not scanned: one mask and compare, where `plan` converts.
    @inline(__always) var isCrowd: Bool { raw & 3 == Int32(BucketPlan.crowd.rawValue) }
    @inline(__always) var isCells: Bool { raw & 3 == Int32(BucketPlan.cells.rawValue) }
    var plan: BucketPlan { raw < 0 ? .scan : BucketPlan(rawValue: UInt8(raw & 3)).unsafelyUnwrapped }
    @inline(__always) var position: Int { Int(raw >> 2) }
}
