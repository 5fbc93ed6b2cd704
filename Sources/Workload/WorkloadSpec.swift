import Foundation
import TriggerKit

/// A workload spec (docs/harness.md, "Workload specs"): everything that shapes a synthetic corpus and
/// event stream. `trigger-workload/1` describes the built-in shapes; `trigger-workload/2` adds a
/// `shape` fitted to someone's data by `bench fit` (docs/harness.md, "Your data's twin").
public struct WorkloadSpec: Sendable, Equatable {
    package static let format = "trigger-workload/1"
    package static let fittedFormat = "trigger-workload/2"

    public var name = "default"
    public var seed: UInt64 = 42
    public var events = 5_000_000
    public var triggers = 1000
    public var eventNames = 2000
    package var zipf = 1.1
    package var propertiesPerEvent = 0...12
    package var filtersPerTrigger = 0...4
    package var regexShare = 0.05
    package var kinds: [String: Double] = ["custom_event": 0.85, "purchase": 0.10, "session_start": 0.03, "push_click": 0.02]
    public var crowdedTriggers = 0
    /// Share of string property values drawn fresh: strings no corpus constant and no other event
    /// holds (search terms, URLs, user input), so interning and the regex memo cannot help.
    package var freshStringShare = 0.0
    /// A fitted twin's shape; when set, it decides everything but the seed, the event and trigger
    /// counts and the event kind mix.
    package var shape: TwinShape?
    /// A routing rule set's shape (`RoutingShape`); when set, it decides everything but the seed and
    /// the event and trigger counts.
    package var routing: RoutingShape?
    /// A publish/subscribe shape (`PubSubShape`); when set, it decides everything but the seed and the
    /// event and trigger counts.
    package var pubsub: PubSubShape?

    public init() {}

    static let keys: Set<String> = ["format", "name", "seed", "events", "triggers", "event_names", "zipf",
                                    "properties_per_event", "filters_per_trigger", "regex_share", "kinds", "crowded",
                                    "fresh_string_share", "shape", "routing", "pubsub"]
    /// The keys a fitted spec's shape decides instead.
    static let shapedKeys: Set<String> = ["event_names", "zipf", "properties_per_event", "filters_per_trigger", "regex_share",
                                          "crowded", "fresh_string_share"]

    /// Decodes a spec; any key may be omitted, an unknown key is an error.
    package static func decode(_ bytes: [UInt8], file: String) throws -> WorkloadSpec {
        func fail(_ path: String, _ reason: String) -> InputError { InputError(file: file, path: path, reason: reason) }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            throw fail("line \(error.line), column \(error.column)", "invalid JSON: \(error.reason)")
        }
        guard case .object(let members) = json else { throw fail("$", "expected a workload spec (an object)") }
        var spec = WorkloadSpec()
        let fitted = members.contains { $0.key == "format" && $0.value == .string(fittedFormat) }
        func int(_ v: JSONValue, _ path: String, min: Int, max: Int = Int.max) throws -> Int {
            guard case .int(let i) = v, i >= min, i <= max else {
                throw fail(path, "expected an integer from \(min) to \(max), found \(v.serialized)")
            }
            return Int(i)
        }
        func share(_ v: JSONValue, _ path: String) throws -> Double {
            guard let d = v.number, d >= 0, d <= 1 else { throw fail(path, "expected a share from 0 to 1, found \(v.serialized)") }
            return d
        }
        func range(_ v: JSONValue, _ path: String, max: Int) throws -> ClosedRange<Int> {
            guard case .array(let a) = v, a.count == 2 else { throw fail(path, "expected [min, max], found \(v.serialized)") }
            let lo = try int(a[0], path + "[0]", min: 0, max: max), hi = try int(a[1], path + "[1]", min: 0, max: max)
            guard lo <= hi else { throw fail(path, "min \(lo) is above max \(hi)") }
            return lo...hi
        }
        for (key, v) in members {
            switch key {
            case "format":
                guard v == .string(format) || v == .string(fittedFormat) else {
                    throw fail(key, "unsupported format \(v.serialized); expected \"\(format)\" or \"\(fittedFormat)\"")
                }
            case "shape":
                guard fitted else { throw fail(key, "a shape needs \"format\": \"\(fittedFormat)\"") }
                spec.shape = try TwinShape.decode(v, file: file)
            case "routing":
                guard !fitted, case .string(let name) = v, let shape = RoutingShape(rawValue: name) else {
                    throw fail(key, "expected one of \(RoutingShape.allCases.map(\.rawValue).joined(separator: ", ")) in a \(format) spec")
                }
                spec.routing = shape
            case "pubsub":
                guard !fitted else { throw fail(key, "a pubsub shape belongs in a \(format) spec") }
                spec.pubsub = try PubSubShape.decode(v, file: file)
            case _ where fitted && shapedKeys.contains(key):
                throw fail(key, "a fitted spec's shape decides \(key); allowed beside it: seed, events, triggers, kinds")
            case "name":
                guard case .string(let s) = v, !s.isEmpty else { throw fail(key, "expected a non-empty string") }
                spec.name = s
            case "seed":
                guard case .int(let i) = v, i >= 0 else { throw fail(key, "expected a non-negative integer seed") }
                spec.seed = UInt64(i)
            case "events": spec.events = try int(v, key, min: 1, max: 1_000_000_000)
            case "triggers": spec.triggers = try int(v, key, min: 1, max: CorpusDecoder.maxTriggers)
            case "event_names": spec.eventNames = try int(v, key, min: 1, max: 10_000_000)
            case "zipf":
                guard let d = v.number, d >= 0, d <= 10 else { throw fail(key, "expected a Zipf exponent from 0 to 10") }
                spec.zipf = d
            case "properties_per_event": spec.propertiesPerEvent = try range(v, key, max: WorkloadGenerator.schema.count)
            case "filters_per_trigger": spec.filtersPerTrigger = try range(v, key, max: 64)
            case "regex_share": spec.regexShare = try share(v, key)
            case "fresh_string_share": spec.freshStringShare = try share(v, key)
            case "kinds":
                guard case .object(let ks) = v else { throw fail(key, "expected an object of kind shares") }
                var kinds: [String: Double] = [:]
                for (k, s) in ks {
                    guard EventDecoder.eventTypes.contains(k) else {
                        throw fail("kinds.\(k)", "unknown event kind; expected custom_event, purchase, session_start or push_click")
                    }
                    kinds[k] = try share(s, "kinds.\(k)")
                }
                guard kinds.values.reduce(0, +) > 0 else { throw fail(key, "the kind shares must not all be zero") }
                spec.kinds = kinds
            case "crowded":
                guard case .object(let cs) = v else { throw fail(key, "expected {\"triggers\": N}") }
                for (k, c) in cs {
                    guard k == "triggers" else { throw fail("crowded.\(k)", "unknown key; allowed: triggers") }
                    spec.crowdedTriggers = try int(c, "crowded.triggers", min: 0, max: CorpusDecoder.maxTriggers)
                }
            default:
                throw fail(key, "unknown key \"\(key)\"; allowed: \(keys.sorted().joined(separator: ", "))")
            }
        }
        for (family, set) in [("routing", spec.routing != nil), ("pubsub", spec.pubsub != nil)] where set {
            if let other = members.first(where: { shapedKeys.contains($0.key) || ["kinds", "routing", "pubsub"].contains($0.key) && $0.key != family }) {
                throw fail(other.key, "a \(family) spec's shape decides \(other.key); allowed beside it: seed, events, triggers")
            }
        }
        if fitted, spec.shape == nil { throw fail("shape", "a \(fittedFormat) spec needs a shape (bench fit writes one)") }
        guard spec.triggers + spec.crowdedTriggers <= CorpusDecoder.maxTriggers else {
            throw fail("crowded.triggers", "triggers + crowded.triggers exceeds \(CorpusDecoder.maxTriggers)")
        }
        return spec
    }

    /// Whether `--workload` names a spec file (a path or a `.json` name) rather than a preset.
    package static func isFile(_ nameOrPath: String) -> Bool { nameOrPath.hasSuffix(".json") || nameOrPath.contains("/") }

    /// The largest spec file read: a fitted spec of a big, varied trigger set takes megabytes.
    package static let maxFileBytes = 64 << 20

    /// Loads a preset by name (`Corpora/workloads/NAME.json`) or a spec file by path.
    package static func load(_ nameOrPath: String) throws -> WorkloadSpec {
        let candidates = isFile(nameOrPath)
            ? [nameOrPath]
            : presetDirectories.map { "\($0)/\(nameOrPath).json" }
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            return try decode(BoundedFile.read(path, limit: maxFileBytes), file: path)
        }
        let known = presetNames()
        throw InputError(file: nameOrPath, path: "", reason: "no such workload file or preset"
            + (known.isEmpty ? "" : "; presets: \(known.joined(separator: ", "))"))
    }

    /// Where presets are looked up: the current directory's `Corpora/workloads`, then the checkout's.
    static var presetDirectories: [String] {
        ["Corpora/workloads"] + (SourceTree.root.map { [$0 + "/Corpora/workloads"] } ?? [])
    }

    package static func presetNames() -> [String] {
        for dir in presetDirectories {
            if let files = try? FileManager.default.contentsOfDirectory(atPath: dir), !files.isEmpty {
                return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            }
        }
        return []
    }
}
