import Foundation
import TriggerKit

/// Two or more builds of `bench` compared on one workload (`bench ab`): each build's `bench run --json`
/// reports, from runs that alternate between the builds, pooled per build. On a shared host the speed
/// drifts over minutes, so one run per build compares the host's moods as much as the code; alternating
/// spreads each mood over every build, and within a run every repetition of one strategy sits next to
/// the same repetition of the others (`Runner` interleaves them), so ratios are taken within a repetition.
package struct BuildComparison: Sendable {
    package struct Row: Sendable, Equatable {
        package var build: String
        package var strategy: String
        /// Over every repetition of every run of this build: the least and the median ns/event.
        package var bestNs: Double
        package var medianNs: Double
        /// Median, over every repetition, of this strategy's ns/event over the baseline strategy's in the
        /// same repetition; nil for the baseline itself or when it was not run.
        package var medianRatio: Double?
        /// `bestNs` over the baseline strategy's `bestNs` (the least disturbed figure of each).
        package var bestRatio: Double?
        package var samples: Int
        /// The per-repetition ratios `medianRatio` is the median of, one list per run.
        package var ratios: [[Double]] = []
    }

    package var rows: [Row] = []

    /// Pools `reports[build]` (each build's runs, in any order). Every evaluating strategy must report the
    /// same checksum in every run of every build of one match digest, and the same match count across
    /// digests (the builds must match alike; a difference is a bug in one of them); `baseline` (usually
    /// `floor`) is what the ratios divide by.
    package init(reports: [(build: String, runs: [RunReport])], baseline: String) throws {
        var checksums: [String: [Bool: (build: String, checksum: MatchChecksum)]] = [:]
        for (build, runs) in reports {
            var samples: [String: [Double]] = [:]
            var ratios: [String: [[Double]]] = [:]
            var order: [String] = []
            for run in runs {
                let rows = run.results.filter(\.key.isPlain)
                let base = rows.first { $0.strategy == baseline }
                for r in rows {
                    if r.strategy != FloorMatcher.strategyName {
                        // A build from before the current match digest (results schema 1 or 2) checksums the same
                        // matches differently: checksums are compared within a digest, match counts across.
                        let digest = run.hasCurrentMatchDigest, c = r.matches.checksum
                        if let seen = checksums[r.strategy]?[digest], seen.checksum != c {
                            throw MatchedWrongly(description: "\(r.strategy): build \(build) matched with checksum \(c.hex), build \(seen.build) with \(seen.checksum.hex)")
                        }
                        if let other = checksums[r.strategy]?[!digest], other.checksum.matches != c.matches {
                            throw MatchedWrongly(description: "\(r.strategy): build \(build) found \(c.matches) matches, build \(other.build) \(other.checksum.matches)")
                        }
                        checksums[r.strategy, default: [:]][digest] = (build, c)
                    }
                    if samples[r.strategy] == nil { order.append(r.strategy) }
                    samples[r.strategy, default: []] += r.timing.nsPerEventSamples ?? [r.timing.nsPerEvent.mean]
                    if r.strategy != baseline, let base { ratios[r.strategy, default: []].append(ResultRows.pairedRatios(r.timing, base.timing)) }
                }
            }
            let bestBase = samples[baseline]?.min()
            for strategy in order {
                let s = samples[strategy]!
                let best = s.min()!
                rows.append(Row(build: build, strategy: strategy, bestNs: best, medianNs: Statistics.median(s),
                                medianRatio: ratios[strategy].map { Statistics.median(Array($0.joined())) },
                                bestRatio: strategy == baseline ? nil : bestBase.map { best / $0 }, samples: s.count,
                                ratios: ratios[strategy] ?? []))
            }
        }
    }

    /// The comparison as a text table, one row per (build, strategy).
    package func table(baseline: String) -> String {
        let width = max(5, rows.map(\.build.count).max() ?? 0)
        let strategyWidth = max(16, rows.map(\.strategy.count).max() ?? 0)
        var lines = ["build".padding(toLength: width, withPad: " ", startingAt: 0)
                     + " " + "strategy".padding(toLength: strategyWidth, withPad: " ", startingAt: 0) + "  best ns  median ns  ×\(baseline) (median of paired)  ×\(baseline) (best/best)  samples"]
        for r in rows {
            lines.append(r.build.padding(toLength: width, withPad: " ", startingAt: 0) + " "
                         + r.strategy.padding(toLength: strategyWidth, withPad: " ", startingAt: 0)
                         + String(format: "  %7.1f  %9.1f", r.bestNs, r.medianNs)
                         + (r.medianRatio.map { String(format: "  %25.2f×", $0) } ?? String(repeating: " ", count: 28))
                         + (r.bestRatio.map { String(format: "  %20.2f×", $0) } ?? String(repeating: " ", count: 23))
                         + String(format: "  %7d", r.samples))
        }
        lines += changeLines(baseline: baseline)
        return lines.joined(separator: "\n")
    }

    /// Each later build's change against the first, per strategy: the ratio (of ratios to the baseline
    /// strategy) and its bootstrap 95 % interval (runs resampled, then repetitions within each).
    package struct Change: Sendable {
        package var strategy: String
        package var build: String
        package var ratio: Double
        package var interval: [Double]

        /// The decision `bench ab --fail-if-slower` takes: slower when the whole interval lies above 1
        /// and the ratio is at least 1 + `minimumEffect` (calibrated by scripts/calibrate-ab).
        package func isSlower(minimumEffect: Double) -> Bool { interval[0] > 1 && ratio >= 1 + minimumEffect }

        /// Slower (as `isSlower`); not slower when the whole interval lies below 1 + `tolerance`, so a
        /// slowdown that large is ruled out; otherwise undecided: the interval is too wide for either,
        /// and only more rounds can tell. Never "not slower" from an interval like [0.52, 1.43].
        package func verdict(minimumEffect: Double, tolerance: Double) -> Verdict {
            if isSlower(minimumEffect: minimumEffect) { return .slower }
            return interval[1] < 1 + tolerance ? .notSlower : .undecided
        }

        package init(strategy: String, build: String, ratio: Double, interval: [Double]) {
            self.strategy = strategy
            self.build = build
            self.ratio = ratio
            self.interval = interval
        }
    }

    package enum Verdict: String, Sendable, Codable {
        case slower, notSlower = "not-slower", undecided
    }

    package func changes(baseline: String) -> [Change] {
        guard let first = rows.first?.build else { return [] }
        var out: [Change] = []
        for a in rows where a.build == first && a.strategy != baseline {
            for b in rows where b.build != first && b.strategy == a.strategy {
                guard let ci = Bootstrap.ratioInterval(a.ratios, b.ratios, statistic: Statistics.median),
                      let ra = a.medianRatio, let rb = b.medianRatio else { continue }
                out.append(Change(strategy: a.strategy, build: b.build, ratio: rb / ra, interval: ci))
            }
        }
        return out
    }

    /// `changes` as lines: each with whether its interval includes 1 (no difference shown).
    package func changeLines(baseline: String) -> [String] {
        guard let first = rows.first?.build else { return [] }
        return changes(baseline: baseline).map { c in
            let verdict = c.interval[0] <= 1 && 1 <= c.interval[1] ? "includes 1: no difference shown"
                : (c.interval[1] < 1 ? "below 1: \(c.build) is faster" : "above 1: \(c.build) is slower")
            return String(format: "%@: ×%@ of %@ over %@ = %.3f, 95 %% interval [%.3f, %.3f], %@", c.strategy, baseline, c.build, first,
                          c.ratio, c.interval[0], c.interval[1], verdict)
        }
    }
}

extension BuildComparison {
    /// The alternating runs behind a comparison, added a round at a time (A B A B …), so that
    /// `bench ab --fail-if-slower` can go on until its interval decides. Each round runs
    /// `EXECUTABLE run INPUT --strategies … --events … --repetitions … --json F` once per build; a build is
    /// a path to a `bench` executable, shown as given. With `plugins`, each plugin file is one "build",
    /// run by the first executable with `--plugin` (and `--no-plugin-check`: the caller checks each once).
    package final class Rounds {
        private let runs: [(label: String, executable: String, extra: [String])]
        private let arguments: [String]
        private let work: TemporaryFolder
        /// One results file per build, reused every round (a signal handler slot each, and few exist).
        private let outputs: [String]
        private var reports: [[RunReport]]
        package private(set) var count = 0

        /// `pipedWorkload`: the text of a `--workload` file that is a pipe, which only one run could read;
        /// every run is handed a copy in its place.
        package init(builds: [String], plugins: [String] = [], input: [String], pipedWorkload: [UInt8]? = nil, strategies: [String], events: Int?, repetitions: Int) throws {
            runs = plugins.isEmpty
                ? builds.map { ($0, $0, []) }
                : plugins.map { ($0, builds[0], ["--plugin", $0, "--no-plugin-check"]) }
            work = try TemporaryFolder(prefix: "trigger-bench-ab")
            var input = input
            if let pipedWorkload, let k = input.firstIndex(of: "--workload"), k + 1 < input.count {
                let copy = work.file("workload.json")
                try AtomicFile.write(Data(pipedWorkload), to: copy)
                input[k + 1] = copy
            }
            arguments = input + ["--strategies", strategies.joined(separator: ",")] + (events.map { ["--events", String($0)] } ?? [])
                + ["--repetitions", String(repetitions)]
            reports = runs.map { _ in [] }
            outputs = runs.indices.map { [work] in work.file("run-\($0).json") }
        }

        deinit { work.remove() }

        /// Runs every build once more.
        package func add(progress: (String) -> Void = { _ in }) throws {
            for (k, run) in runs.enumerated() {
                progress("round \(count + 1): \(run.label)")
                let out = outputs[k]
                try Subprocess.run(run.executable, ["run"] + arguments + run.extra + ["--json", out], what: "\(run.label) run") { status, tail in
                    // `bench run` exits 1 when its matches are not to be trusted: its strategies (here the
                    // plugin against a built-in one) matched differently, or a plugin broke its ABI. The
                    // builds do not match alike, as with a checksum difference.
                    status == 1 ? MatchedWrongly(description: "\(run.label) did not match as the built-in strategies in its own run: \(tail)") : nil
                }
                reports[k].append(try RunReport.load(out))
            }
            count += 1
        }

        /// Every round so far, pooled per build.
        package func comparison(baseline: String) throws -> BuildComparison {
            try BuildComparison(reports: zip(runs, reports).map { (build: $0.0.label, runs: $0.1) }, baseline: baseline)
        }
    }
}
