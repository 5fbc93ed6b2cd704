import Foundation

/// `mallctl`, found at run time: present when the process links jemalloc (the `bench` executable),
/// absent in test bundles and other hosts, where every statistic reads as unavailable.
private typealias Mallctl = @convention(c) (
    UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
) -> Int32

private let mallctlFunction: Mallctl? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }
    return unsafeBitCast(symbol, to: Mallctl.self)
}()

private func mallctl(_ name: String, _ old: UnsafeMutableRawPointer?, _ oldLength: UnsafeMutablePointer<Int>?,
                     _ new: UnsafeMutableRawPointer?, _ newLength: Int) -> Int32 {
    guard let f = mallctlFunction else { return -1 }
    return name.withCString { f($0, old, oldLength, new, newLength) }
}

/// jemalloc statistics through `mallctl` (docs/measuring.md): exact allocation counts per thread pass,
/// per-thread byte counters, and the global gauges.
package enum AllocatorStats {
    /// The global gauges of a results file (docs/harness.md), in bytes.
    package struct Gauges: Codable, Sendable, Equatable {
        package var allocated = 0, active = 0, resident = 0, mapped = 0, metadata = 0, retained = 0
    }

    static func read<T>(_ name: String, as: T.Type, default value: T) -> T {
        var v = value
        var size = MemoryLayout<T>.size
        let rc = withUnsafeMutablePointer(to: &v) { mallctl(name, UnsafeMutableRawPointer($0), &size, nil, 0) }
        return rc == 0 ? v : value
    }

    /// Refreshes jemalloc's cached statistics; `stats.*` are stale until this runs.
    package static func refresh() {
        var newEpoch: UInt64 = 1
        _ = withUnsafeMutablePointer(to: &newEpoch) { mallctl("epoch", nil, nil, UnsafeMutableRawPointer($0), MemoryLayout<UInt64>.size) }
    }

    /// Whether jemalloc is the process allocator (its version is readable).
    package static var version: String? {
        var p: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard withUnsafeMutablePointer(to: &p, { mallctl("version", UnsafeMutableRawPointer($0), &size, nil, 0) }) == 0,
              let p else { return nil }
        return String(cString: p).components(separatedBy: "-").first
    }

    /// jemalloc `stats.allocated` after flushing this thread's cache (bytes the program holds).
    package static func allocatedBytes() -> Int {
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        refresh()
        return read("stats.allocated", as: Int.self, default: 0)
    }

    package static func gauges() -> Gauges {
        refresh()
        return Gauges(
            allocated: read("stats.allocated", as: Int.self, default: 0), active: read("stats.active", as: Int.self, default: 0),
            resident: read("stats.resident", as: Int.self, default: 0), mapped: read("stats.mapped", as: Int.self, default: 0),
            metadata: read("stats.metadata", as: Int.self, default: 0), retained: read("stats.retained", as: Int.self, default: 0))
    }

    /// Allocation requests served so far by all arenas (small + large). Flush the calling thread's
    /// cache first, or requests still sitting in it are not counted.
    package static func allocationRequests() -> UInt64 {
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        refresh()
        return read("stats.arenas.4096.small.nrequests", as: UInt64.self, default: 0)
            + read("stats.arenas.4096.large.nrequests", as: UInt64.self, default: 0)
    }

    /// Exact allocation requests and bytes of `body` on the calling thread: the thread cache is flushed
    /// around it, and what reading the counters costs with no work between them is subtracted.
    package static func counting(_ body: () throws -> Void) rethrows -> (requests: UInt64, bytes: UInt64) {
        let c0 = allocationRequests(), c1 = allocationRequests()
        let overhead = c1 &- c0
        let b0 = threadAllocatedBytes()
        let r0 = allocationRequests()
        try body()
        let r1 = allocationRequests()
        let b1 = threadAllocatedBytes()
        return (r1 &- r0 &- min(overhead, r1 &- r0), b1 &- b0)
    }

    /// Bytes allocated by the calling thread so far (exact, cheap).
    package static func threadAllocatedBytes() -> UInt64 {
        var p: UnsafeMutablePointer<UInt64>?
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        guard withUnsafeMutablePointer(to: &p, { mallctl("thread.allocatedp", UnsafeMutableRawPointer($0), &size, nil, 0) }) == 0,
              let p else { return 0 }
        return p.pointee
    }

    /// Bytes the calling thread allocated and has not freed since it started (exact): the difference
    /// across a build is what the built structure holds.
    package static func threadNetBytes() -> Int {
        var p: UnsafeMutablePointer<UInt64>?
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        guard withUnsafeMutablePointer(to: &p, { mallctl("thread.deallocatedp", UnsafeMutableRawPointer($0), &size, nil, 0) }) == 0,
              let p else { return 0 }
        return Int(truncatingIfNeeded: threadAllocatedBytes() &- p.pointee)
    }

    /// The most the calling thread held at once (allocated minus freed) since `resetThreadPeak`, as
    /// jemalloc 5.3 approximates it; nil where it cannot tell.
    package static func threadPeakBytes() -> Int? {
        var peak: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard withUnsafeMutablePointer(to: &peak, { mallctl("thread.peak.read", UnsafeMutableRawPointer($0), &size, nil, 0) }) == 0
        else { return nil }
        return Int(truncatingIfNeeded: peak)
    }

    package static func resetThreadPeak() { _ = mallctl("thread.peak.reset", nil, nil, nil, 0) }

    /// `MALLOC_CONF` as the process saw it, if set.
    package static var mallocConf: String? { ProcessInfo.processInfo.environment["MALLOC_CONF"] }
}
