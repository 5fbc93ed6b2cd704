import Foundation
import Workload

/// How a results file was made: when, from which commit, on which host, by which command, with which
/// settings, and how noisy the machine looked. `bench check` compares only runs whose settings agree.
package struct RunMetadata: Codable, Sendable {
    /// Every setting that changes the figures of a run (the workload is recorded beside it).
    package struct Settings: Codable, Sendable, Equatable {
        package var strategies: [String]
        package var threads: [Int]
        package var publications: [String]
        package var publishEveryMs: Int?
        package var prebuiltSets: Bool
        /// `--delta-triggers`: the writer published deltas of this many triggers (nil: whole sets).
        package var deltaTriggers: Int?
        package var events: Int
        package var referenceEvents: Int
        package var batchSize: Int
        package var warmupEvents: Int
        package var allocationEvents: Int
        package var latencyEvents: Int
        package var repetitions: Int
        /// Untimed warm-up before each timed pass, the minimum length of a pass (`--warmup-seconds`,
        /// `--pass-seconds`) and the events timed cold (`--cold-events`); nil in files from before them.
        package var warmupSeconds: Double?
        package var passSeconds: Double?
        package var coldEvents: Int?
        /// `--inject-slowdown STRATEGY=FRACTION` (calibration runs only; nil otherwise).
        package var injectedSlowdown: String? = nil
        /// The `--plugin` libraries, so results say which build of each plugin they measured.
        package var plugins: [Plugin]?

        package struct Plugin: Codable, Sendable, Equatable {
            package var name: String
            package var version: String
            package var path: String
            package var sha256: String
            /// `--plugin PATH,key=value,…` (nil when none were given).
            package var options: [PluginLibrary.Option]?
            /// The plugin ABI version the library was built for (nil in files from before ABI 2).
            package var abiVersion: Int?
            /// Whether it agreed with reference on the conformance and generated cases before it was
            /// timed; false when `--no-plugin-check` skipped that (nil in files from before the check).
            package var checked: Bool? = nil

            package init(name: String, version: String, path: String, sha256: String, options: [PluginLibrary.Option]? = nil, abiVersion: Int? = nil, checked: Bool? = nil) {
                self.name = name
                self.version = version
                self.path = path
                self.sha256 = sha256
                self.options = options
                self.abiVersion = abiVersion
                self.checked = checked
            }
        }

        /// The settings the gate holds equal, by JSON name (strategies, threads and publications pick the
        /// rows, which the gate matches one by one).
        package var compared: [(name: String, value: String)] {
            [("events", String(events)), ("reference_events", String(referenceEvents)), ("batch_size", String(batchSize)),
             ("warmup_events", String(warmupEvents)), ("allocation_events", String(allocationEvents)),
             ("latency_events", String(latencyEvents)), ("repetitions", String(repetitions)),
             // A file from before them timed one replay with no warm-up: 0 and 0. Cold events are not
             // compared: they come before the timed passes and the gate only reports them.
             ("warmup_seconds", "\(warmupSeconds ?? 0)"), ("pass_seconds", "\(passSeconds ?? 0)"),
             ("publish_every_ms", publishEveryMs.map(String.init) ?? "none"), ("prebuilt_sets", String(prebuiltSets)),
             ("delta_triggers", deltaTriggers.map(String.init) ?? "none"),
             ("injected_slowdown", injectedSlowdown ?? "none"),
             // By name and options: a new build of the same plugin is the change a gate tests, noted
             // with both digests (`Gate.notePluginBuilds`), not a refusal.
             ("plugins", (plugins ?? []).map { p in ([p.name] + (p.options ?? []).map { "\($0.key)=\($0.value)" }).joined(separator: ",") }.joined(separator: ", "))]
        }

        /// The names `compared` uses, for `--allow-difference`.
        package static let comparedNames = ["events", "reference_events", "batch_size", "warmup_events", "allocation_events", "latency_events",
                                           "repetitions", "warmup_seconds", "pass_seconds", "publish_every_ms", "prebuilt_sets", "delta_triggers", "injected_slowdown", "plugins"]

        package init(strategies: [String], threads: [Int], publications: [String], publishEveryMs: Int? = nil, prebuiltSets: Bool, deltaTriggers: Int? = nil, events: Int, referenceEvents: Int, batchSize: Int, warmupEvents: Int, allocationEvents: Int, latencyEvents: Int, repetitions: Int, warmupSeconds: Double? = nil, passSeconds: Double? = nil, coldEvents: Int? = nil, injectedSlowdown: String? = nil, plugins: [Plugin]? = nil) {
            self.strategies = strategies
            self.threads = threads
            self.publications = publications
            self.publishEveryMs = publishEveryMs
            self.prebuiltSets = prebuiltSets
            self.deltaTriggers = deltaTriggers
            self.events = events
            self.referenceEvents = referenceEvents
            self.batchSize = batchSize
            self.warmupEvents = warmupEvents
            self.allocationEvents = allocationEvents
            self.latencyEvents = latencyEvents
            self.repetitions = repetitions
            self.warmupSeconds = warmupSeconds
            self.passSeconds = passSeconds
            self.coldEvents = coldEvents
            self.injectedSlowdown = injectedSlowdown
            self.plugins = plugins
        }
    }

    /// What the machine looked like around the run; nil where this system does not say.
    package struct Noise: Codable, Sendable {
        /// 1, 5 and 15-minute load averages.
        package var loadBefore: [Double]?
        package var loadAfter: [Double]?
        /// CPUs' worth of work other processes did in a tenth of a second sampled just before and just after
        /// the run (0.5: half a core). Unlike the load average, it does not count this process's own
        /// build or run of a moment ago.
        package var othersBusyBefore: Double?
        package var othersBusyAfter: Double?
        /// The CPU frequency governor (`performance`, `powersave`, …).
        package var governor: String?
        /// Whether frequency boost is on.
        package var boost: Bool?
        /// Whether the CPU reports running under a hypervisor.
        package var hypervisor: Bool?
        /// Address-space layout randomisation (`/proc/sys/kernel/randomize_va_space`: 0 off, 2 full).
        package var aslr: Int?

        package init(loadBefore: [Double]? = nil, loadAfter: [Double]? = nil, othersBusyBefore: Double? = nil, othersBusyAfter: Double? = nil, governor: String? = nil, boost: Bool? = nil, hypervisor: Bool? = nil, aslr: Int? = nil) {
            self.loadBefore = loadBefore
            self.loadAfter = loadAfter
            self.othersBusyBefore = othersBusyBefore
            self.othersBusyAfter = othersBusyAfter
            self.governor = governor
            self.boost = boost
            self.hypervisor = hypervisor
            self.aslr = aslr
        }
    }

    package var timestamp: String
    package var commit: String?
    package var dirty: Bool?
    package var label: String?
    package var host: String
    package var command: [String]
    package var settings: Settings
    package var noise: Noise

    package init(timestamp: String, commit: String? = nil, dirty: Bool? = nil, label: String? = nil, host: String, command: [String], settings: Settings, noise: Noise) {
        self.timestamp = timestamp
        self.commit = commit
        self.dirty = dirty
        self.label = label
        self.host = host
        self.command = command
        self.settings = settings
        self.noise = noise
    }
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
            loadBefore: loadAverage(), loadAfter: nil, othersBusyBefore: othersBusy(), othersBusyAfter: nil,
            governor: text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"), boost: boost,
            hypervisor: text("/proc/cpuinfo").map { $0.contains(" hypervisor") },
            aslr: text("/proc/sys/kernel/randomize_va_space").flatMap { Int($0) })
    }

    static func loadAverage() -> [Double]? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return fields.count == 3 ? fields : nil
    }

    /// CPUs' worth of time that processes other than this one used, on the CPUs this process may run on,
    /// over `seconds` (nil off Linux). The hypervisor's steal is not counted: it is not a process here.
    static func othersBusy(seconds: Double = 0.1) -> Double? {
        func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
        // The CPUs this process may use ("0-1,4"): in a container /proc/stat lists the host's.
        let allowed: Set<Int>? = text("/proc/self/status")?.split(separator: "\n")
            .first { $0.hasPrefix("Cpus_allowed_list:") }
            .map { line in
                Set(line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").flatMap { part -> [Int] in
                    let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap { Int($0) }
                    guard let lo = bounds.first, let hi = bounds.last, lo <= hi else { return [] }
                    return Array(lo...hi)
                })
            }
        func totals() -> (busy: Double, own: Double)? {
            guard let stat = text("/proc/stat"), let mine = text("/proc/self/stat"), let close = mine.lastIndex(of: ")") else { return nil }
            var busy = 0.0
            for line in stat.split(separator: "\n") where line.hasPrefix("cpu") && !line.hasPrefix("cpu ") {
                let fields = line.split(separator: " ")
                guard let cpu = Int(fields[0].dropFirst(3)), allowed?.contains(cpu) ?? true else { continue }
                let f = fields.dropFirst().compactMap { Double($0) }
                // user, nice, system, irq, softirq.
                if f.count >= 7 { busy += f[0] + f[1] + f[2] + f[5] + f[6] }
            }
            // utime and stime: fields 14 and 15 of /proc/self/stat, the 12th and 13th after the name.
            let own = mine[mine.index(after: close)...].split(separator: " ")
            guard own.count > 13, let utime = Double(own[11]), let stime = Double(own[12]) else { return nil }
            return (busy, utime + stime)
        }
        guard let a = totals() else { return nil }
        Thread.sleep(forTimeInterval: seconds)
        guard let b = totals() else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, (b.busy - a.busy) - (b.own - a.own)) / hz / seconds
    }

    /// What a reader should know before trusting the figures; empty when nothing looks wrong. Other
    /// work is named when it took at least half a core, since then it took CPU time from the readers.
    func warnings(cores: Int) -> [String] {
        var out: [String] = []
        for (when, busy) in [("before", othersBusyBefore), ("after", othersBusyAfter)] {
            if let busy, busy >= 0.5 {
                out.append("other processes kept \(String(format: "%.1f", busy)) of \(cores) CPUs busy just \(when) the run: they shared the CPUs with it, so compare rows within this run, and rerun on a quieter host for absolute numbers")
            }
        }
        if let governor, governor != "performance" {
            out.append("the CPU frequency governor is \"\(governor)\", not \"performance\": clock speed may vary during the run")
        }
        return out
    }
}

extension RunMetadata {
    /// The commit of the checkout this binary was built from, and whether tracked files differ from it
    /// (not of the folder the user runs in: that may be their own repository).
    static func gitState() -> (commit: String?, dirty: Bool?) {
        let git = ["/usr/bin/git", "/usr/local/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git, let root = SourceTree.root,
              let head = try? Subprocess.run(git, ["-C", root, "rev-parse", "HEAD"], what: "git rev-parse") else { return (nil, nil) }
        let status = try? Subprocess.run(git, ["-C", root, "status", "--porcelain", "--untracked-files=no"], what: "git status")
        return (head.trimmingCharacters(in: .whitespacesAndNewlines), status.map { !$0.isEmpty })
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
