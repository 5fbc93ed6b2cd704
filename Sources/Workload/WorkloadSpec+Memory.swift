import Foundation
import TriggerKit

extension WorkloadSpec {
    /// Bytes the struct-of-arrays replay buffers take per event: kind, key, action, time and property
    /// start (21 bytes), plus 13 bytes (key id, tag, payload) per property at the spec's mean count,
    /// plus the fresh strings (`freshStringShare` of the string values), each interned with about
    /// 128 bytes of string and table.
    public var replayBytesPerEvent: Int {
        let properties = Double((propertiesPerEvent.lowerBound + propertiesPerEvent.upperBound) / 2 + 1)
        let stringShare = Double(WorkloadGenerator.schema.filter { $0.values.type == .string }.count) / Double(WorkloadGenerator.schema.count)
        return 21 + 13 * Int(properties) + Int((properties * stringShare * freshStringShare * 128).rounded(.up))
    }

    /// Refuses `events` events whose replay buffers would not fit in the memory available now, before
    /// anything is allocated (an allocation that fails midway aborts the process).
    public func checkReplayBuffersFit(events: Int, file: String) throws {
        guard let available = Self.availableMemoryBytes() else { return }
        let (bytes, overflow) = events.multipliedReportingOverflow(by: replayBytesPerEvent)
        // Growth and the generator's own tables need headroom: allow at most 3/4 of what is available.
        guard overflow || bytes > available / 4 * 3 else { return }
        let needed = overflow ? "more than \(Int.max) bytes" : Self.formatBytes(bytes)
        throw InputError(
            file: file, path: "events",
            reason: "\(events) events need about \(needed) of replay buffers (\(replayBytesPerEvent) bytes per event × \(events)), but only \(Self.formatBytes(available)) of memory is available; lower the event count (--events)")
    }

    /// Memory this process may still take: `MemAvailable` from /proc/meminfo, or less when an
    /// address-space limit (`ulimit -v`) leaves less room than that; nil where neither is known.
    public static func availableMemoryBytes() -> Int? {
        var available = meminfoBytes("/proc/meminfo", "MemAvailable:")
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
           let used = meminfoBytes("/proc/self/status", "VmSize:") {
            let room = max(Int(clamping: limit.rlim_cur) - used, 0)
            available = min(available ?? room, room)
        }
        return available
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

    public static func formatBytes(_ bytes: Int) -> String {
        let gb = Double(bytes) / Double(1 << 30)
        return gb >= 1 ? String(format: "%.1f GiB", gb) : String(format: "%.0f MiB", Double(bytes) / Double(1 << 20))
    }
}
