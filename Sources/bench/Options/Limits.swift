import Foundation
import ArgumentParser

/// Bounds on numeric options, checked before any value is used (so no arithmetic on them can overflow).
enum Limits {
    /// The most events a run, a replay buffer or a generated stream holds (a workload spec's own bound).
    static let maxEvents = 1_000_000_000
    static let maxBatchSize = 1 << 24
    /// One minute between publications is already far slower than any run it would measure.
    static let maxPublishEveryMs = 60_000

    static func check(_ option: String, _ value: Int, _ range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) takes \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }
}
