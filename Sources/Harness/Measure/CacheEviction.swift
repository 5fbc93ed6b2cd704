import Foundation

/// A buffer larger than the last-level cache, read one word per cache line between cold events: what
/// an app's matcher meets when events arrive seconds apart with the caches full of other work. The
/// read displaces the matcher's tables, the scratch and the event's columns from every data cache
/// level and most TLB entries; the matcher's code and the branch predictors stay about as warm as the
/// short eviction loop leaves them. Mapped outside jemalloc, so no heap gauge or count includes it.
package final class CacheEviction: @unchecked Sendable {
    let bytes: Int
    private let base: UnsafeMutableRawPointer
    /// Sum of the words read, kept so the reads cannot be optimised away.
    private(set) var sink: UInt64 = 0

    /// Twice the last-level cache (64 MB where the system does not say).
    static var defaultBytes: Int { 2 * (lastLevelCacheBytes() ?? 32 << 20) }

    /// The largest cache of CPU 0 as sysfs reports it (`/sys/devices/system/cpu/cpu0/cache/index*/size`).
    package static func lastLevelCacheBytes() -> Int? {
        var largest: Int?
        for index in 0..<8 {
            guard let text = try? String(contentsOfFile: "/sys/devices/system/cpu/cpu0/cache/index\(index)/size", encoding: .utf8) else { continue }
            let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let scale = t.hasSuffix("K") ? 1 << 10 : t.hasSuffix("M") ? 1 << 20 : 1
            guard let n = Int(t.filter(\.isNumber)), n > 0 else { continue }
            largest = max(largest ?? 0, n * scale)
        }
        return largest
    }

    /// Maps and writes `bytes` (rounded up to whole pages), so each page is resident before it is timed.
    init?(bytes: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = (max(bytes, page) + page - 1) / page * page
        guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else { return nil }
        base = p
        self.bytes = size
        // Distinct values per line: a page of zeros could be shared (and never fill the cache).
        let words = base.bindMemory(to: UInt64.self, capacity: size / 8)
        for k in stride(from: 0, to: size / 8, by: 8) { words[k] = UInt64(k) }
    }

    deinit { munmap(base, bytes) }

    /// Reads one word of every cache line, in order (the hardware prefetcher makes this a few ms).
    func evict() {
        let words = base.assumingMemoryBound(to: UInt64.self)
        var sum: UInt64 = 0
        for k in stride(from: 0, to: bytes / 8, by: 8) { sum &+= words[k] }
        sink &+= sum
    }
}
