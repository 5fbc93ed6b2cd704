import Foundation

/// How a results file was made: when, from which commit, on which host, by which command, with which
/// settings, and how noisy the machine looked. `bench check` compares only runs whose settings agree.
public struct RunMetadata: Codable, Sendable {
    /// Every setting that changes the figures of a run (the workload is recorded beside it).
    public struct Settings: Codable, Sendable, Equatable {
        public var strategies: [String]
        public var threads: [Int]
        public var publications: [String]
        public var publishEveryMs: Int?
        public var prebuiltSets: Bool
        /// `--delta-triggers`: the writer published deltas of this many triggers (nil: whole sets).
        public var deltaTriggers: Int?
        public var events: Int
        public var referenceEvents: Int
        public var batchSize: Int
        public var warmupEvents: Int
        public var allocationEvents: Int
        public var latencyEvents: Int
        public var repetitions: Int
        /// The `--plugin` libraries, so results say which build of each plugin they measured.
        public var plugins: [Plugin]?

        public struct Plugin: Codable, Sendable, Equatable {
            public var name: String
            public var version: String
            public var path: String
            public var sha256: String
        }

        /// The settings the gate holds equal, by JSON name (strategies, threads and publications pick the
        /// rows, which the gate matches one by one).
        var compared: [(name: String, value: String)] {
            [("events", String(events)), ("reference_events", String(referenceEvents)), ("batch_size", String(batchSize)),
             ("warmup_events", String(warmupEvents)), ("allocation_events", String(allocationEvents)),
             ("latency_events", String(latencyEvents)), ("repetitions", String(repetitions)),
             ("publish_every_ms", publishEveryMs.map(String.init) ?? "none"), ("prebuilt_sets", String(prebuiltSets)),
             ("delta_triggers", deltaTriggers.map(String.init) ?? "none"),
             ("plugins", (plugins ?? []).map { "\($0.name) (sha256 \($0.sha256.prefix(12)))" }.joined(separator: ", "))]
        }
    }

    /// What the machine looked like around the run; nil where this system does not say.
    public struct Noise: Codable, Sendable {
        /// 1, 5 and 15-minute load averages.
        public var loadBefore: [Double]?
        public var loadAfter: [Double]?
        /// The CPU frequency governor (`performance`, `powersave`, …).
        public var governor: String?
        /// Whether frequency boost is on.
        public var boost: Bool?
        /// Whether the CPU reports running under a hypervisor.
        public var hypervisor: Bool?
        /// Address-space layout randomisation (`/proc/sys/kernel/randomize_va_space`: 0 off, 2 full).
        public var aslr: Int?
    }

    public var timestamp: String
    public var commit: String?
    public var dirty: Bool?
    public var label: String?
    public var host: String
    public var command: [String]
    public var settings: Settings
    public var noise: Noise
}

extension RunMetadata.Noise {
    /// Reads what Linux exposes; every field is nil elsewhere.
    static func read() -> RunMetadata.Noise {
        func text(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let boost: Bool? = text("/sys/devices/system/cpu/cpufreq/boost").map { $0 == "1" }
            ?? text("/sys/devices/system/cpu/intel_pstate/no_turbo").map { $0 == "0" }
        return RunMetadata.Noise(
            loadBefore: loadAverage(), loadAfter: nil,
            governor: text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"), boost: boost,
            hypervisor: text("/proc/cpuinfo").map { $0.contains(" hypervisor") },
            aslr: text("/proc/sys/kernel/randomize_va_space").flatMap { Int($0) })
    }

    static func loadAverage() -> [Double]? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return fields.count == 3 ? fields : nil
    }

    /// What a reader should know before trusting the figures; empty when nothing looks wrong.
    func warnings(cores: Int) -> [String] {
        var out: [String] = []
        for (when, load) in [("before", loadBefore), ("after", loadAfter)] {
            if let one = load?.first, one > Double(cores) / 2 {
                out.append("the 1-minute load was \(String(format: "%.2f", one)) \(when) the run on \(cores) cores: other work shared the CPUs")
            }
        }
        if let governor, governor != "performance" {
            out.append("the CPU frequency governor is \"\(governor)\", not \"performance\": clock speed may vary during the run")
        }
        return out
    }
}

extension RunMetadata {
    /// The commit of the git checkout the process runs in, and whether tracked files differ from it.
    static func gitState() -> (commit: String?, dirty: Bool?) {
        let git = ["/usr/bin/git", "/usr/local/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git, let head = try? Subprocess.run(git, ["rev-parse", "HEAD"], what: "git rev-parse") else { return (nil, nil) }
        let status = try? Subprocess.run(git, ["status", "--porcelain", "--untracked-files=no"], what: "git status")
        return (head.trimmingCharacters(in: .whitespacesAndNewlines), status.map { !$0.isEmpty })
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(cString: buffer)
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
