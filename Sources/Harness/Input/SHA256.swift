import CDigest

/// A streaming SHA-256, so a results file can say exactly which bytes it replayed.
package struct SHA256 {
    private var state = trigger_bench_sha256()

    package init() { trigger_bench_sha256_init(&state) }

    /// `portable`: the portable rounds even where the CPU's SHA extensions would hash (tests compare them).
    package init(portable: Bool) {
        trigger_bench_sha256_init(&state)
        state.portable = portable ? 1 : 0
    }

    /// Whether this CPU's SHA extensions do the hashing.
    package static var usesExtensions: Bool { trigger_bench_sha256_extensions() != 0 }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        trigger_bench_sha256_update(&state, bytes.baseAddress, bytes.count)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest in lowercase hex, as `sha256sum` prints it.
    package mutating func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        trigger_bench_sha256_final(&state, &digest)
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest {
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func hex(of bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }
}
