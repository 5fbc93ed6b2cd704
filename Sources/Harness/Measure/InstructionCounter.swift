import CCallgrind
import Foundation
import TriggerKit
import Workload

/// The deterministic tier of the gate (docs/measuring.md): instructions per event of the single-threaded
/// matching loop, counted by `valgrind --tool=callgrind` between the shim's start and stop requests.
///
/// The parent (`bench instructions`, `bench run --instructions`) re-runs this executable under
/// callgrind once per strategy; the child generates the workload and warms the matcher uninstrumented,
/// then counts exactly one pass of the same loop the timed run uses.
package enum InstructionCounter {
    /// One strategy's count.
    package struct Count: Sendable {
        package var strategy: String
        package var events: Int
        package var instructions: UInt64
        package var checksum: MatchChecksum
        package var instructionsPerEvent: Double { Double(instructions) / Double(events) }
    }

    /// The hidden child mode: replays `count` events through `strategy` with counting on, and returns the
    /// checksum (printed for the parent, which checks it against the other strategies).
    /// `deltaTriggers`: count matching through the snapshot a writer publishes after one `BenchDeltas`
    /// delta of that many triggers (edited and added triggers in its layer) instead of a plain build.
    package static func runCountedRegion(input: LoadedInput, strategy runStrategy: RunStrategy, count: Int,
                                        deltaTriggers: Int? = nil) throws -> MatchChecksum {
        let strategy = try runStrategy.strategy(for: input)
        let events = input.events
        let matcher: any Matcher
        if let deltaTriggers {
            let writer = try strategy.makeWriter(input.set, input.vocabulary, events.symbols)
            var deltas = BenchDeltas(input.set, triggers: deltaTriggers)
            matcher = try writer.apply(deltas.next())
        } else {
            matcher = try strategy.make(input.set, input.vocabulary)
        }
        let n = min(count, events.count)
        return events.withView { view in
            let scratch = matcher.makeScratch(for: events)
            // Warm, uncounted: regex memo tables and lazily built indexes are filled as in the timed run.
            ReplayLoop.matchOnly(matcher, view, 0..<n, scratch)
            trigger_bench_callgrind_start()
            let sum = countedLoop(matcher, view, n, scratch)
            trigger_bench_callgrind_stop()
            return sum
        }
    }

    /// The counted region: the timed readers' loop, specialised per strategy and kept out of line so
    /// that callgrind's start and stop requests bracket it alone.
    @inline(never)
    static func countedLoop<M: Matcher>(_ matcher: M, _ view: EventView, _ n: Int, _ scratch: MatchScratch) -> MatchChecksum {
        var sum = MatchChecksum()
        ReplayLoop.matchAndSum(matcher, view, 0..<n, scratch, into: &sum)
        return sum
    }

    /// What the child prints last: the checksum's value and its match count, read back by the parent.
    package static func childLine(_ sum: MatchChecksum) -> String { "checksum \(sum.hex) \(sum.matches)" }

    static func parseChildLine(_ stdout: String) -> MatchChecksum? {
        guard let line = stdout.split(separator: "\n").last(where: { $0.hasPrefix("checksum ") }) else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3, let value = UInt64(parts[1], radix: 16), let matches = Int(parts[2]) else { return nil }
        return MatchChecksum(value: value, matches: matches)
    }

    /// Runs the child under callgrind for each strategy and reads the totals from its output file.
    /// - Parameters:
    ///   - input: what the child replays: a generated spec is written for it to a file in the work folder.
    ///   - events: the event count the child replays (`reference` replays `referenceEvents`).
    ///   - strategies: counted in order; a foreign one through its `match` entry point.
    package static func count(input: InputSource, strategies: [RunStrategy], events: Int, referenceEvents: Int,
                             deltaTriggers: Int? = nil, progress: (String) -> Void = { _ in }) throws -> [Count] {
        let valgrind = try Self.findValgrind()
        let work = try TemporaryFolder(prefix: "trigger-bench-callgrind")
        defer { work.remove() }
        let inputArguments = try childArguments(input, in: work)
        // valgrind 3.19 gives up on the debug info swiftc writes ("possibly corrupted debuginfo"): count a
        // copy without it. Instructions are the same; only symbol names for annotation are lost.
        let binary = work.file("bench")
        try Subprocess.run("/usr/bin/env", ["strip", "--strip-debug", "-o", binary, executablePath()], what: "strip (binutils)")
        var counts: [Count] = []
        for (k, counted) in strategies.enumerated() {
            let strategy = counted.name
            progress("callgrind \(k + 1)/\(strategies.count): \(strategy)")
            let n = strategy == ReferenceMatcher.strategyName ? min(referenceEvents, events) : events
            let out = work.file("callgrind.\(k).out")
            var args = ["--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--callgrind-out-file=\(out)",
                        binary, "instructions", "--child", strategy, "--events", String(n)] + counted.childArguments + inputArguments
            if let deltaTriggers { args += ["--delta-triggers", String(deltaTriggers)] }
            let stdout = try Subprocess.run(valgrind, args, what: "valgrind --tool=callgrind")
            guard let checksum = parseChildLine(stdout) else {
                throw HarnessError(what: out, reason: "the counted child printed no checksum")
            }
            let total = try totals(ofCallgrindFile: out)
            guard total > 0 else {
                throw HarnessError(what: out, reason: "callgrind counted 0 instructions: bench was built without <valgrind/callgrind.h> (install valgrind, rebuild)")
            }
            counts.append(Count(strategy: strategy, events: n, instructions: total, checksum: checksum))
        }
        return counts
    }

    /// The `totals:` (or `summary:`) line of a callgrind output file.
    static func totals(ofCallgrindFile path: String) throws -> UInt64 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw HarnessError(what: path, reason: "callgrind wrote no output file")
        }
        // `totals:` is the sum over the counted region; `summary:` can read 0 when collection was toggled.
        for prefix in ["totals:", "summary:"] {
            for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
                if let value = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }), value > 0 { return value }
            }
        }
        throw HarnessError(what: path, reason: "no totals line in the callgrind output")
    }

    /// The arguments that make the child read `input`: a generated spec written in full to `work`
    /// (events included), or the user's files with the lines to read.
    static func childArguments(_ input: InputSource, in work: TemporaryFolder) throws -> [String] {
        switch input {
        case .generated(let spec):
            let file = work.file("workload.json")
            try Data((spec.json.serialized + "\n").utf8).write(to: URL(fileURLWithPath: file))
            return ["--workload", file]
        case .files(let files):
            return ["--corpus", files.corpusPath, "--event-log", files.eventLogPath] + (files.strict ? ["--strict"] : [])
                + (files.lineLimit.map { ["--input-lines", String($0)] } ?? [])
        }
    }

    static func findValgrind() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(dir)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw HarnessError(what: "valgrind", reason: "valgrind is not installed; run scripts/require-packages (it installs it) or apt-get install valgrind")
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
