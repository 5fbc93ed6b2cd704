import Foundation

/// The machine a result came from; the gate refuses to compare unlike ones silently.
package struct Environment: Codable, Sendable, Equatable {
    package var cpu: String
    package var cores: Int
    package var kernel: String
    package var swift: String
    package var jemalloc: String?
    package var mallocConf: String?

    package static func current() -> Environment {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var u = utsname()
        uname(&u)
        let kernel = withUnsafeBytes(of: u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Environment(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, kernel: kernel,
                           swift: BuildInfo.swiftVersion, jemalloc: AllocatorStats.version, mallocConf: AllocatorStats.mallocConf)
    }

    package init(cpu: String, cores: Int, kernel: String, swift: String, jemalloc: String? = nil, mallocConf: String? = nil) {
        self.cpu = cpu
        self.cores = cores
        self.kernel = kernel
        self.swift = swift
        self.jemalloc = jemalloc
        self.mallocConf = mallocConf
    }
}
