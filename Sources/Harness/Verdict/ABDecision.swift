import Foundation

/// What `bench ab --fail-if-slower` decided, and from how much: each later build's change per strategy
/// with its verdict, and the whole comparison's outcome. A pass needs every interval to rule the
/// slowdown out; an interval too wide for either answer takes more rounds, and if the time budget runs
/// out first the outcome is "inconclusive" (its own exit code), never a pass.
package struct ABDecision: Sendable, Codable, Equatable {
    package static let schemaName = "trigger-bench-ab/1"

    package enum Outcome: String, Sendable, Codable {
        case pass, fail, inconclusive
    }

    package struct Entry: Sendable, Codable, Equatable {
        package var strategy: String
        package var build: String
        package var ratio: Double
        package var interval: [Double]
        package var verdict: BuildComparison.Verdict
    }

    package var schema = ABDecision.schemaName
    /// nil without --fail-if-slower: the comparison was only shown.
    package var outcome: Outcome?
    package var rounds: Int
    package var seconds: Double
    package var minimumEffect: Double
    package var tolerance: Double
    package var changes: [Entry]

    /// Only `settings.judged` strategies' changes decide. One run per build decides nothing: the
    /// interval resamples runs, and one run has no spread to resample.
    package init(comparison: BuildComparison, settings: Settings, rounds: Int, seconds: Double) {
        changes = comparison.changes(baseline: settings.baseline).filter { settings.judged($0.strategy) }.map {
            Entry(strategy: $0.strategy, build: $0.build, ratio: $0.ratio, interval: $0.interval,
                  verdict: rounds < 2 || !$0.interval.allSatisfy(\.isFinite) ? .undecided
                      : $0.verdict(minimumEffect: settings.minimumEffect, tolerance: settings.tolerance))
        }
        let deciding = settings.deciding
        self.minimumEffect = settings.minimumEffect
        self.tolerance = settings.tolerance
        self.rounds = rounds
        self.seconds = seconds
        let verdicts = changes.map(\.verdict)
        // Slower anywhere fails (more rounds would not undo it); otherwise one undecided change makes
        // the whole comparison undecided.
        outcome = !deciding ? nil : verdicts.contains(.slower) ? .fail : verdicts.contains(.undecided) || verdicts.isEmpty ? .inconclusive : .pass
    }

    package func json() throws -> Data { try RunReport.encoder.encode(self) }

    /// One line per change that is not a plain "not slower", then the outcome's line.
    package func lines() -> [String] {
        var out: [String] = []
        for c in changes {
            let shown = String(format: "%@ of %@ is ×%.3f the first build's (95 %% interval [%.3f, %.3f]", c.strategy, c.build, c.ratio, c.interval[0], c.interval[1])
            switch c.verdict {
            case .slower: out.append("SLOWER: " + shown + String(format: "; fails at ≥ %.3g %%)", minimumEffect * 100))
            case .undecided: out.append("UNDECIDED: " + shown + String(format: ": too wide to show a slowdown or to rule out one of %.3g %%)", tolerance * 100))
            case .notSlower: break
            }
        }
        switch outcome {
        case .pass?: out.append("ab gate: pass (every interval below ×\(String(format: "%.4g", 1 + tolerance)) after \(rounds) rounds)")
        case .fail?: out.append("ab gate: FAIL")
        case .inconclusive?:
            out.append(String(format: "ab gate: INCONCLUSIVE after %d rounds in %.0f s: the host was too noisy to tell; run again on a quieter runner, or give more --max-seconds", rounds, seconds))
        case nil: break
        }
        return out
    }
}

/// Source of rounds for `ABDecision.measure`: `BuildComparison.Rounds` runs builds; tests feed reports.
package protocol ComparisonRounds: AnyObject {
    var count: Int { get }
    func add(progress: (String) -> Void) throws
    func comparison(baseline: String) throws -> BuildComparison
}

extension BuildComparison.Rounds: ComparisonRounds {}

extension ABDecision {
    /// How `bench ab` compares and, with `--fail-if-slower`, decides.
    package struct Settings {
        /// The strategy every row's time is taken relative to (`floor`).
        package var baseline: String
        /// Whether a verdict is asked for (`--fail-if-slower`); without it one pass of rounds is shown.
        package var deciding: Bool
        /// The smallest slowdown that fails, and the slowdown a pass must rule out.
        package var minimumEffect = Gate.defaultMinimumEffect
        package var tolerance = 0.05
        /// Rounds before the first decision, the most rounds, and the time more rounds may take.
        package var initialRounds: Int
        package var maxRounds = 1000
        package var maxSeconds: Double
        /// The strategies whose changes decide (in a plugin comparison, only the plugins' rows: the
        /// built-in ones are one binary on both sides).
        package var judged: (String) -> Bool = { _ in true }

        package init(baseline: String, deciding: Bool, initialRounds: Int, maxSeconds: Double) {
            self.baseline = baseline
            self.deciding = deciding
            self.initialRounds = initialRounds
            self.maxSeconds = maxSeconds
        }
    }

    /// Runs `settings.initialRounds`, then, when deciding and some change is undecided, one more round
    /// at a time while another fits in `maxSeconds` (judged by the rounds so far). `now` is seconds on
    /// a monotonic clock.
    package static func measure(_ rounds: ComparisonRounds, _ settings: Settings,
                               now: () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
                               progress: (String) -> Void = { _ in }) throws -> (BuildComparison, ABDecision) {
        let start = now()
        for _ in 0..<settings.initialRounds { try rounds.add(progress: progress) }
        while true {
            let comparison = try rounds.comparison(baseline: settings.baseline)
            let elapsed = now() - start
            let decision = ABDecision(comparison: comparison, settings: settings, rounds: rounds.count, seconds: elapsed)
            let perRound = elapsed / Double(max(1, rounds.count))
            guard decision.outcome == .inconclusive, rounds.count < settings.maxRounds, elapsed + perRound <= settings.maxSeconds else {
                return (comparison, decision)
            }
            if let widest = decision.changes.filter({ $0.verdict == .undecided }).max(by: { $0.interval[1] - $0.interval[0] < $1.interval[1] - $1.interval[0] }) {
                // The interval against the two lines it must clear, so a user watching sees it narrow.
                progress(String(format: "undecided after %d rounds: %@ ×%.3f in [%.3f, %.3f]; a pass needs the top below ×%.3f, a slowdown the bottom above ×1 and the ratio at least ×%.3f; another round",
                                rounds.count, widest.strategy, widest.ratio, widest.interval[0], widest.interval[1], 1 + settings.tolerance, 1 + settings.minimumEffect))
            }
            try rounds.add(progress: progress)
        }
    }
}
