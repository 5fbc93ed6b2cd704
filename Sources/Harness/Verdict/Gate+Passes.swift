import Foundation

/// What the gate says of how rows were timed: a baseline timed before warm, time-targeted passes is
/// refused with the fix; cold single events are compared for information; a flagged row is named.
extension Gate {
    /// The settings a results file of an earlier build lacks because it timed fixed counts of events
    /// with no warm-up before each pass: its means are not comparable with a run of this build.
    static let passSettings = ["warmup_seconds", "pass_seconds"]

    /// Refuses, with the one fix, a baseline whose passes were timed the earlier way (unless
    /// `--allow-difference` names those settings).
    static func refuseEarlierPasses(_ b: RunMetadata.Settings, _ c: RunMetadata.Settings, options: Options) throws {
        guard b.passSeconds == nil, (c.passSeconds ?? 0) > 0 || (c.warmupSeconds ?? 0) > 0,
              !options.allowedDifferences.contains("all"), !passSettings.allSatisfy(options.allowedDifferences.contains) else { return }
        throw Refusal(description: "refusing to compare: the baseline was timed before warm, time-targeted passes (its settings have no warmup_seconds or pass_seconds), so its means were measured another way; record it again with this build (bench gate … --update), or pass --allow-difference \(passSettings.joined(separator: ","))")
    }

    /// Cold single events (`--cold-events`): a change is reported, never judged (a few hundred events
    /// each behind an eviction vary more run to run than the gate's other tiers).
    static func compareCold(_ row: String, _ b: StrategyResult, _ c: StrategyResult) -> Finding? {
        guard let bc = b.coldLatencyNs, let cc = c.coldLatencyNs else { return nil }
        return Finding(row: row, metric: "cold p50 ns", baseline: fmt(bc.p50), current: fmt(cc.p50), change: pct(cc.p50 / bc.p50 - 1),
                       verdict: .informational, note: "\(bc.samples) vs \(cc.samples) events each timed after evicting the caches; reported, not gated")
    }

    /// "; the baseline's row is flagged wide (…)" for the wall-clock finding's note, when either side was.
    static func flaggedNote(_ b: StrategyResult, _ c: StrategyResult) -> String {
        let sides = [("baseline", b), ("current", c)].compactMap { side, r -> String? in
            guard let flags = r.passes?.flags, !flags.isEmpty else { return nil }
            return "the \(side)'s row is flagged \(flags.joined(separator: ", "))"
        }
        return sides.isEmpty ? "" : "; " + sides.joined(separator: "; ") + " (bench run's table says why)"
    }
}
