import TriggerKit

/// Whether building a strategy's matcher fits the memory left, asked before the build: a build cannot
/// stop midway when memory runs out (Swift traps when an allocation fails), so a set whose matcher
/// would not fit is refused with one line instead. What a build takes depends on the set's shape
/// (prefix tables, interval cells, regexes), so it is measured, not guessed: the strategy builds a
/// sample of every k-th trigger, jemalloc reports the most that build held at once, and the figure
/// is scaled to the whole set with a margin of 2. The room is what the process may still take plus
/// what jemalloc holds but has not allocated (freed by the decoder, reused by the build).
package enum BuildRoom {
    /// Sets this small are sampled whole (their build is small); larger ones by a sixteenth at most.
    static let wholeBelow = 1_024
    static let sampleShare = 16
    static let margin = 2

    /// Throws when `strategy`'s build for `set` may need more than `allowance` has. Only built-in
    /// strategies are sampled (a plugin's memory is its own), and only where memory and jemalloc are known.
    package static func check(_ strategy: StrategyRegistry.Strategy, set: TriggerSet, file: String? = nil,
                              allowance: MemoryAllowance = MemoryAllowance()) throws {
        guard strategy.name != ReferenceMatcher.strategyName, StrategyRegistry.named(strategy.name) != nil,
              let mappable = allowance.available(), AllocatorStats.threadPeakBytes() != nil else { return }
        let gauges = AllocatorStats.gauges()
        // Mapped but unallocated pages are jemalloc's to reuse. Its retained pages are address space
        // too (in VmSize, reusable), so they count where the address-space limit is what binds, and
        // not against MemAvailable, which they are not part of.
        let addressSpaceBinds = MemoryBudget.addressSpaceRoom().map { max($0 - MemoryAllowance.reserve, 0) <= mappable } ?? false
        let available = mappable + max(0, gauges.mapped - gauges.allocated + (addressSpaceBinds ? gauges.retained : 0))
        let n = set.triggers.count
        let step = n < wholeBelow ? 1 : min(sampleShare, n / wholeBelow)
        let sample = step == 1 ? set : TriggerSet(
            triggers: stride(from: 0, to: n, by: step).map { set.triggers[$0] },
            minimumTriggerInterval: set.minimumTriggerInterval, actionCategories: set.actionCategories)
        let vocabulary = Vocabulary(sample)
        // The peak is counted from the reset: what the build held beyond what the thread held before.
        AllocatorStats.resetThreadPeak()
        let matcher = try strategy.make(sample, vocabulary)
        let sampled = AllocatorStats.threadPeakBytes() ?? 0
        withExtendedLifetime(matcher) {}
        let (scaled, overflow) = sampled.multipliedReportingOverflow(by: margin * n)
        let need = overflow ? Int.max : scaled / max(sample.triggers.count, 1)
        guard need > available else { return }
        throw InputError(file: file, path: "", reason: "building \(strategy.name) for \(n) triggers may need up to "
                         + "\(MemoryBudget.format(need)) of memory (measured on every \(step == 1 ? "" : "\(step)th ")trigger), "
                         + "and \(MemoryBudget.format(available)) is available; load fewer triggers, pick a strategy "
                         + "that needs less (bench builds shows each one's bytes per build) or free memory")
    }
}
