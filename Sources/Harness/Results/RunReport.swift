import Foundation
import TriggerKit
import Workload

/// A whole `bench run` (docs/harness.md, `trigger-bench-results/3`).
package struct RunReport: Codable, Sendable {
    package struct Workload: Codable, Sendable {
        package var name: String
        package var seed: UInt64
        package var events: Int
        package var triggers: Int
        /// The user's files the run replayed (`--corpus`, `--event-log`); nil for a generated workload.
        package var data: ReplayedFiles?
        /// A generated workload's identity: SHA-256 of its spec as replayed (`WorkloadSpec.json`, every
        /// key and default, the run's event count), so two specs that share a name and seed are told
        /// apart. Nil for your own files and in results written before it.
        package var specSha256: String?

        package init(name: String, seed: UInt64, events: Int, triggers: Int, data: ReplayedFiles? = nil, specSha256: String? = nil) {
            self.name = name
            self.seed = seed
            self.events = events
            self.triggers = triggers
            self.data = data
            self.specSha256 = specSha256
        }

        package init(_ spec: WorkloadSpec, events: Int) {
            name = spec.name
            seed = spec.seed
            self.events = events
            triggers = spec.triggers + spec.crowdedTriggers
            var replayed = spec
            replayed.events = events
            specSha256 = SHA256.hex(of: Array(replayed.json.serialized.utf8))
        }
    }

    /// The schema written; files of every schema in `readableSchemas` can be read.
    package static let schemaName = "trigger-bench-results/3"
    package static let readableSchemas = ["trigger-bench-results/1", "trigger-bench-results/2", "trigger-bench-results/3"]

    /// The schemas whose checksums use this build's match digest (`MatchChecksum`). Schemas 1 and 2
    /// hold the earlier digest's (two splitmix rounds per match): readable, but their checksums equal
    /// no checksum this build computes.
    package static let currentDigestSchemas: Set = ["trigger-bench-results/3"]
    package var hasCurrentMatchDigest: Bool { Self.currentDigestSchemas.contains(schema) }

    /// Refuses a results file whose checksums this build cannot reproduce (one of an earlier digest),
    /// for a command that compares them with its own run's: before minutes of measuring, not after.
    package func requireCurrentMatchDigest(file: String, fix: String) throws {
        guard !hasCurrentMatchDigest else { return }
        throw InputError(file: file, path: "schema", reason: "\(schema) holds checksums of an earlier match digest, which no \(Self.schemaName) checksum can equal; \(fix)")
    }

    package var schema = RunReport.schemaName
    package var build: String
    package var environment: Environment
    package var workload: Workload
    package var results: [StrategyResult]
    /// How the run was made (schema 2).
    package var run: RunMetadata?
    /// jemalloc's process gauges at the points where they mean something (schema 2).
    package var jemalloc: RunGauges?

    /// jemalloc's process-wide gauges after the workload was generated, after each strategy's build, and
    /// at the end of the run.
    package struct RunGauges: Codable, Sendable {
        package var afterGeneration: AllocatorStats.Gauges
        package var afterBuild: [String: AllocatorStats.Gauges]
        package var end: AllocatorStats.Gauges
    }

    package init(build: String, environment: Environment, workload: Workload, results: [StrategyResult],
                run: RunMetadata? = nil, jemalloc: RunGauges? = nil) {
        self.build = build
        self.environment = environment
        self.workload = workload
        self.results = results
        self.run = run
        self.jemalloc = jemalloc
    }

    package static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }()

    package static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }()

    package func json() throws -> Data { try Self.encoder.encode(self) }
}
