import Foundation
import TriggerKit
import Workload

/// Whether this binary was built for measuring.
public enum BuildInfo {
    #if DEBUG
    public static let configuration = "debug"
    #else
    public static let configuration = "release"
    #endif

    public static var swiftVersion: String {
        #if compiler(>=6.4)
        return "6.4+"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "<6.3"
        #endif
    }
}

/// The machine a result came from; the gate refuses to compare unlike ones silently.
public struct Environment: Codable, Sendable, Equatable {
    public var cpu: String
    public var cores: Int
    public var kernel: String
    public var swift: String
    public var jemalloc: String?
    public var mallocConf: String?

    public static func current() -> Environment {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var u = utsname()
        uname(&u)
        let kernel = withUnsafeBytes(of: u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Environment(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, kernel: kernel,
                           swift: BuildInfo.swiftVersion, jemalloc: AllocatorStats.version, mallocConf: AllocatorStats.mallocConf)
    }
}

/// One row of results: a strategy × publication × thread count (docs/harness.md, "Results").
public struct StrategyResult: Codable, Sendable {
    public struct Latency: Codable, Sendable {
        public var mean, p50, p90, p99, p999, max: Double
    }

    public var strategy: String
    public var publication: Publication
    public var threads: Int
    public var events: Int
    public var matches: Int
    public var checksum: String
    public var eventsPerSecond: Double
    public var nsPerEvent: Latency
    public var allocationsPerEvent: Double
    public var bytesPerEvent: Double
    /// Process-wide gauges read at the end of the run: every row of a schema-1 file carries the same
    /// block. Schema 2 has one block for the run (`RunReport.jemalloc`) and leaves this out.
    public var jemalloc: AllocatorStats.Gauges?
    public var matchesPerEvent: Double
    public var candidatesPerEvent: Double
    public var cpuSeconds: Double
    public var wallSeconds: Double
    public var speedupVsReference: Double?
    public var ratioToFloor: Double?
    /// Seconds to build the matcher (interning, compiling, indexing).
    public var buildSeconds: Double
    /// Sets published by the writer during the timed run (publication runs only).
    public var publications: Int?
    /// Mean milliseconds the writer spent building one published set (publication runs only), by the
    /// clock: when the writer shares the cores with readers it is descheduled part of that time.
    public var rebuildMsPerPublication: Double?
    /// The same on the writer thread's CPU clock: what the readers lose when the writer shares their cores.
    public var rebuildCpuMsPerPublication: Double?
    /// Triggers in each delta the writer published (`--delta-triggers`); nil when it rebuilt whole sets.
    public var deltaTriggers: Int?
    /// Publications that were full builds of the set: all of them without deltas, a delta writer's merges
    /// (or all, for a strategy that rebuilds on a delta).
    public var fullRebuilds: Int?
    public var perThreadEventsPerSecond: [Double]?
    /// Mean ns/event of each timed repetition (`--repetitions`): the samples the gate's wall-clock tier tests.
    public var nsPerEventSamples: [Double]?
    /// Instructions per event of the single-threaded matching loop under callgrind (`--instructions`).
    public var instructionsPerEvent: Double?
    /// jemalloc `stats.allocated` before the writer started and after it stopped (publication runs):
    /// replaced sets must be freed, so the two differ by about one set, not by the sets published.
    public var heapBytesBeforePublishing: Int?
    public var heapBytesAfterPublishing: Int?
    /// Bootstrap 95 % interval of the mean ns/event over the repetitions (nil with one repetition).
    public var meanCi95: [Double]?
    /// Bootstrap 95 % intervals of `ratioToFloor` and `speedupVsReference` over the paired repetitions.
    public var ratioToFloorCi95: [Double]?
    public var speedupVsReferenceCi95: [Double]?
    /// Percentiles of single events, timed one at a time (1-thread, unpublished rows only).
    public var latencyNs: EventLatency?
    /// Bytes the built matcher holds (jemalloc: what the building thread allocated and did not free).
    public var matcherBytes: Int?
    /// Bytes of one reader thread's scratch.
    public var scratchBytes: Int?
}

/// A whole `bench run` (docs/harness.md, `trigger-bench-results/2`).
public struct RunReport: Codable, Sendable {
    public struct Workload: Codable, Sendable {
        public var name: String
        public var seed: UInt64
        public var events: Int
        public var triggers: Int
        /// The user's files the run replayed (`--corpus`, `--event-log`); nil for a generated workload.
        public var data: DataFiles?

        public init(name: String, seed: UInt64, events: Int, triggers: Int, data: DataFiles? = nil) {
            self.name = name
            self.seed = seed
            self.events = events
            self.triggers = triggers
            self.data = data
        }

        init(_ spec: WorkloadSpec, events: Int) {
            name = spec.name
            seed = spec.seed
            self.events = events
            triggers = spec.triggers + spec.crowdedTriggers
        }
    }

    /// The schema written; files of every schema in `readableSchemas` can be read.
    public static let schemaName = "trigger-bench-results/2"
    public static let readableSchemas = ["trigger-bench-results/1", "trigger-bench-results/2"]

    public var schema = RunReport.schemaName
    public var build: String
    public var environment: Environment
    public var workload: Workload
    public var results: [StrategyResult]
    /// How the run was made (schema 2).
    public var run: RunMetadata?
    /// jemalloc's process gauges at the points where they mean something (schema 2).
    public var jemalloc: RunGauges?

    /// jemalloc's process-wide gauges after the workload was generated, after each strategy's build, and
    /// at the end of the run.
    public struct RunGauges: Codable, Sendable {
        public var afterGeneration: AllocatorStats.Gauges
        public var afterBuild: [String: AllocatorStats.Gauges]
        public var end: AllocatorStats.Gauges
    }

    public init(build: String, environment: Environment, workload: Workload, results: [StrategyResult],
                run: RunMetadata? = nil, jemalloc: RunGauges? = nil) {
        self.build = build
        self.environment = environment
        self.workload = workload
        self.results = results
        self.run = run
        self.jemalloc = jemalloc
    }

    public static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }()

    public static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()

    public func json() throws -> Data { try Self.encoder.encode(self) }
}

extension RunReport {
    /// The largest results file read: a run of every strategy, thread count and publication mode with
    /// 1,000 repetitions is a few MB, so anything near this is not a results file.
    public static let maxFileBytes = 64 << 20

    /// Reads a `trigger-bench-results/1` or `/2` file; a malformed one is an `InputError` naming the file and the
    /// JSON path or the line and column. Duplicate keys, and negative or non-finite numbers (no figure in
    /// a results file can be either), are refused.
    public static func load(_ path: String) throws -> RunReport {
        try decode(InputFile.read(path, limit: maxFileBytes), file: path)
    }

    /// Decodes the bytes of a results file; errors name `path`.
    public static func decode(_ bytes: [UInt8], file path: String) throws -> RunReport {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw InputError(file: path, path: "line \(error.line), column \(error.column)", reason: "invalid JSON: \(error.reason)")
        }
        if let (at, value) = firstNegativeNumber(json, at: "") {
            throw InputError(file: path, path: at, reason: "\(value) is negative; a results file holds counts, times and ratios, all zero or more")
        }
        do {
            let report = try decoder.decode(RunReport.self, from: Data(bytes))
            guard readableSchemas.contains(report.schema) else {
                throw InputError(file: path, path: "schema", reason: "expected one of \(readableSchemas.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(report.schema)\"")
            }
            for (k, r) in report.results.enumerated() {
                for (name, interval) in [("mean_ci95", r.meanCi95), ("ratio_to_floor_ci95", r.ratioToFloorCi95),
                                         ("speedup_vs_reference_ci95", r.speedupVsReferenceCi95)] {
                    if let interval, interval.count != 2 || interval[0] > interval[1] {
                        throw InputError(file: path, path: "results[\(k)].\(name)", reason: "an interval is two numbers, [low, high]; got \(interval)")
                    }
                }
            }
            return report
        } catch let error as DecodingError {
            let (codingPath, reason): ([CodingKey], String) = switch error {
            case .keyNotFound(let key, let c): (c.codingPath + [key], "missing")
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): (c.codingPath, c.debugDescription)
            @unknown default: ([], "\(error)")
            }
            let jsonPath = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\(snakeCase($0.stringValue))" }.joined()
            throw InputError(file: path, path: jsonPath.hasPrefix(".") ? String(jsonPath.dropFirst()) : jsonPath, reason: reason)
        }
    }

    /// The path and value of the first negative number in `json` (the parser already refuses non-finite ones).
    static func firstNegativeNumber(_ json: JSONValue, at path: String) -> (String, String)? {
        switch json {
        case .int(let i) where i < 0: return (path, String(i))
        case .double(let d) where d < 0: return (path, String(d))
        case .array(let items):
            for (k, item) in items.enumerated() {
                if let found = firstNegativeNumber(item, at: "\(path)[\(k)]") { return found }
            }
        case .object(let members):
            for m in members {
                if let found = firstNegativeNumber(m.value, at: path.isEmpty ? m.key : "\(path).\(m.key)") { return found }
            }
        default: break
        }
        return nil
    }

    static func snakeCase(_ s: String) -> String {
        var out = ""
        for ch in s {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }

    /// Sets instructions per event on the single-threaded, unpublished row of each counted strategy,
    /// after checking the counted loop found the same matches.
    public mutating func merge(_ counts: [InstructionCounter.Count]) throws {
        for count in counts {
            guard let k = results.firstIndex(where: { $0.strategy == count.strategy && $0.threads == 1 && $0.publication == .none }) else {
                continue
            }
            guard results[k].checksum == count.checksum, results[k].events == count.events else {
                throw ChecksumMismatch(description: "\(count.strategy) under callgrind matched differently (checksum \(count.checksum) over \(count.events) events) from the timed run (\(results[k].checksum) over \(results[k].events))")
            }
            results[k].instructionsPerEvent = count.instructionsPerEvent
        }
    }
}
