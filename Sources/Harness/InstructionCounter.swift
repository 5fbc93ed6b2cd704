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
public enum InstructionCounter {
    /// One strategy's count.
    public struct Count: Sendable {
        public var strategy: String
        public var events: Int
        public var instructions: UInt64
        public var checksum: String
        public var instructionsPerEvent: Double { Double(instructions) / Double(events) }
    }

    /// The hidden child mode: replays `count` events through `strategy` with counting on, and returns the
    /// checksum (printed for the parent, which checks it against the other strategies).
    /// `deltaTriggers`: count matching through the snapshot a writer publishes after one `BenchDeltas`
    /// delta of that many triggers (edited and added triggers in its layer) instead of a plain build.
    public static func runCountedRegion(input: RunInput, strategy name: String, count: Int, deltaTriggers: Int? = nil) throws -> MatchChecksum {
        let strategy = try StrategyRegistry.option(name)
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
            for i in 0..<n { matcher.match(i, in: view, scratch: scratch) }
            trigger_bench_callgrind_start()
            let sum = countedLoop(matcher, view, n, scratch)
            trigger_bench_callgrind_stop()
            return sum
        }
    }

    /// The loop that is counted: the same shape as `ReaderWorker.replay`, specialised per strategy.
    @inline(never)
    static func countedLoop<M: Matcher>(_ matcher: M, _ view: EventView, _ n: Int, _ scratch: MatchScratch) -> MatchChecksum {
        var sum = MatchChecksum()
        for e in 0..<n {
            matcher.match(e, in: view, scratch: scratch)
            sum.add(matchesOf: e, in: scratch)
        }
        return sum
    }

    /// Runs the child under callgrind for each strategy and reads the totals from its output file.
    /// - Parameters:
    ///   - input: the arguments that make the child read the same input (`--workload W`, or `--corpus C --event-log E`).
    ///   - events: the event count the child replays (`reference` replays `referenceEvents`).
    public static func count(input: [String], eventsOverride: Int?, strategies: [String], events: Int, referenceEvents: Int,
                             deltaTriggers: Int? = nil, progress: (String) -> Void = { _ in }) throws -> [Count] {
        let valgrind = try Self.findValgrind()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trigger-bench-callgrind-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // valgrind 3.19 gives up on the debug info swiftc writes ("possibly corrupted debuginfo"): count a
        // copy without it. Instructions are the same; only symbol names for annotation are lost.
        let binary = work.appendingPathComponent("bench").path
        try Subprocess.run("/usr/bin/env", ["strip", "--strip-debug", "-o", binary, executablePath()], what: "strip (binutils)")
        var counts: [Count] = []
        for (k, strategy) in strategies.enumerated() {
            progress("callgrind \(k + 1)/\(strategies.count): \(strategy)")
            let n = strategy == ReferenceMatcher.strategyName ? min(referenceEvents, events) : events
            let out = work.appendingPathComponent("callgrind.\(strategy).out").path
            var args = ["--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--callgrind-out-file=\(out)",
                        binary, "instructions", "--child", strategy, "--events", String(n)] + input
            if let eventsOverride { args += ["--workload-events", String(eventsOverride)] }
            if let deltaTriggers { args += ["--delta-triggers", String(deltaTriggers)] }
            let stdout = try Subprocess.run(valgrind, args, what: "valgrind --tool=callgrind")
            guard let checksum = stdout.split(separator: "\n").last(where: { $0.hasPrefix("checksum ") })?.dropFirst(9) else {
                throw InputError(file: out, path: "", reason: "the counted child printed no checksum")
            }
            let total = try totals(ofCallgrindFile: out)
            guard total > 0 else {
                throw InputError(file: out, path: "", reason: "callgrind counted 0 instructions: bench was built without <valgrind/callgrind.h> (install valgrind, rebuild)")
            }
            counts.append(Count(strategy: strategy, events: n, instructions: total, checksum: String(checksum)))
        }
        return counts
    }

    /// The `totals:` (or `summary:`) line of a callgrind output file.
    static func totals(ofCallgrindFile path: String) throws -> UInt64 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw InputError(file: path, path: "", reason: "callgrind wrote no output file")
        }
        // `totals:` is the sum over the counted region; `summary:` can read 0 when collection was toggled.
        for prefix in ["totals:", "summary:"] {
            for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
                if let value = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }), value > 0 { return value }
            }
        }
        throw InputError(file: path, path: "", reason: "no totals line in the callgrind output")
    }

    static func findValgrind() throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(dir)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw InputError(file: "valgrind", path: "", reason: "valgrind is not installed; run scripts/instructions (it installs it) or apt-get install valgrind")
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
