import CTriggerBenchPlugin

/// Strings by id as the plugin ABI shows them: one UTF-8 blob and a `tb_string` per id, owned here
/// (Swift strings have no stable address to hand out).
final class CStringTable: @unchecked Sendable {
    let entries: UnsafeMutablePointer<tb_string>
    let count: Int
    private let blob: UnsafeMutablePointer<CChar>

    init(_ strings: some Collection<String>) {
        count = strings.count
        let total = strings.reduce(0) { $0 + $1.utf8.count }
        blob = .allocate(capacity: max(total, 1))
        entries = .allocate(capacity: max(count, 1))
        var offset = 0
        for (i, s) in strings.enumerated() {
            let start = blob + offset
            var s = s
            s.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { start.update(from: $0.baseAddress!, count: $0.count) }
            }
            (entries + i).initialize(to: tb_string(bytes: UnsafePointer(start), length: s.utf8.count))
            offset += s.utf8.count
        }
    }

    deinit {
        entries.deallocate()
        blob.deallocate()
    }
}
