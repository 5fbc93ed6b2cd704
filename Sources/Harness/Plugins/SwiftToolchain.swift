import Foundation
import TriggerKit

/// Which Swift toolchain built a shared library, read from its ELF `.comment` section: Swift has no
/// stable ABI on Linux, and a plugin that links the Swift runtime runs on the runtime `bench` loaded,
/// so a plugin built by another toolchain is refused before it is loaded.
package enum SwiftToolchain {
    /// Why a library built by `bytes` must not be loaded into this process, or nil.
    package static func refusal(plugin bytes: [UInt8]) -> String? {
        guard contains(bytes, Array("libswiftCore.so".utf8)) else { return nil }  // not a Swift library
        guard let plugin = compiler(in: bytes),
              let own = (try? BoundedFile.read("/proc/self/exe", limit: 1 << 30)).flatMap(compiler(in:)),
              plugin != own
        else { return nil }  // the same toolchain, or one of them cannot tell
        return "was built by another Swift toolchain (\(plugin)) than this bench (\(own)); Swift has no stable ABI on Linux and the plugin would run on bench's Swift runtime: rebuild it with the swift that built bench"
    }

    /// The toolchain's compiler line (`clang version … (https://github.com/swiftlang/llvm-project.git HASH)`).
    package static func compiler(in bytes: [UInt8]) -> String? {
        ELFSections.comment(in: bytes).first { $0.contains("swiftlang/llvm-project") }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var i = 0
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}

/// The strings of a 64-bit little-endian ELF file's `.comment` section; empty for anything else. Every
/// offset is checked against the file, so a truncated or hostile file yields nothing, never a trap.
package enum ELFSections {
    package static func comment(in bytes: [UInt8]) -> [String] {
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
              bytes[4] == 2, bytes[5] == 1 else { return [] }
        func integer(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for k in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + k]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        guard let table = integer(0x28, 8), let entrySize = integer(0x3A, 2), let count = integer(0x3C, 2),
              let namesIndex = integer(0x3E, 2), entrySize >= 64, namesIndex < count,
              table <= bytes.count, count <= (bytes.count - table) / entrySize else { return [] }
        func section(_ index: Int) -> (name: Int, range: Range<Int>)? {
            let header = table + index * entrySize
            guard let name = integer(header, 4), let offset = integer(header + 0x18, 8), let size = integer(header + 0x20, 8),
                  offset <= bytes.count, size <= bytes.count - offset else { return nil }
            return (name, offset..<(offset + size))
        }
        guard let names = section(namesIndex) else { return [] }
        for index in 0..<count {
            guard let s = section(index) else { continue }
            let start = names.range.lowerBound + s.name
            guard s.name < names.range.count,
                  bytes[start..<names.range.upperBound].prefix(while: { $0 != 0 }).elementsEqual(".comment".utf8) else { continue }
            return bytes[s.range].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
        return []
    }
}
