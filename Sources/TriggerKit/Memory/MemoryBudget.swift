import Foundation

/// How much memory a run may take for what it holds: one rule for generated workloads (checked before
/// generating), event logs (checked while reading) and corpora (claimed while decoding, `MemoryAllowance`).
package enum MemoryBudget {
    /// What the replay buffers and the trigger set may take together: 3/4 of the memory available now,
    /// since growth and the generator's own tables need headroom; nil where the memory is not known.
    package static func replayBytes() -> Int? { availableBytes().map(replayBytes(of:)) }

    /// The replay share of `available` bytes.
    package static func replayBytes(of available: Int) -> Int { available / 4 * 3 }

    /// Memory this process may still take: `MemAvailable` from /proc/meminfo, or less when an
    /// address-space limit (`ulimit -v`) leaves less room than that; nil where neither is known.
    package static func availableBytes() -> Int? {
        let available = meminfoBytes("/proc/meminfo", "MemAvailable:")
        guard let room = addressSpaceRoom() else { return available }
        return min(available ?? room, room)
    }

    /// Address space this process may still map under `ulimit -v` (RLIMIT_AS), read now; nil when no
    /// such limit is set. The allocator keeps freed blocks mapped, so this can fall faster than the
    /// bytes a caller holds: a caller that grows by doubling asks it again before each large step.
    package static func addressSpaceRoom() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              let used = meminfoBytes("/proc/self/status", "VmSize:")
        else { return nil }
        return max(Int(clamping: limit.rlim_cur) - used, 0)
    }

    /// A "Key: N kB" line of a /proc file, in bytes.
    static func meminfoBytes(_ file: String, _ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) })
        else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true).flatMap { $0.split(separator: "\t") }
        guard fields.count >= 2, let kb = Int(fields[1]) else { return nil }
        return kb.multipliedReportingOverflow(by: 1024).overflow ? Int.max : kb * 1024
    }

    package static func format(_ bytes: Int) -> String {
        let gb = Double(bytes) / Double(1 << 30)
        return gb >= 1 ? String(format: "%.1f GiB", gb) : String(format: "%.0f MiB", Double(bytes) / Double(1 << 20))
    }
}
