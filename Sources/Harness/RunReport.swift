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

/// One row of results: a strategy × publication × thread count (SPEC §5.2).
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
    public var jemalloc: AllocatorStats.Gauges
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
    public var perThreadEventsPerSecond: [Double]?
}

/// A whole `bench run` (SPEC §5.2 `trigger-bench-results/1`).
public struct RunReport: Codable, Sendable {
    public struct Workload: Codable, Sendable {
        public var name: String
        public var seed: UInt64
        public var events: Int
        public var triggers: Int

        init(_ spec: WorkloadSpec, events: Int) {
            name = spec.name
            seed = spec.seed
            self.events = events
            triggers = spec.triggers + spec.crowdedTriggers
        }
    }

    public var schema = "trigger-bench-results/1"
    public var build: String
    public var environment: Environment
    public var workload: Workload
    public var results: [StrategyResult]

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
