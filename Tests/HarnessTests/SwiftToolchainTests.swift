import Foundation
import Harness
import TriggerKit
import XCTest

/// Reading which toolchain built a library: real ELF files give their compiler line; a truncated or
/// hostile file gives nothing (and never traps).
final class SwiftToolchainTests: XCTestCase {
    func testThisTestBinaryNamesItsToolchain() throws {
        let bytes = try BoundedFile.read("/proc/self/exe", limit: 1 << 30)
        let compiler = try XCTUnwrap(SwiftToolchain.compiler(in: bytes))
        XCTAssertTrue(compiler.contains("swiftlang/llvm-project"), compiler)
        XCTAssertNil(SwiftToolchain.refusal(plugin: bytes), "a library of the same toolchain is refused")
    }

    func testAnotherToolchainIsRefused() throws {
        var bytes = try BoundedFile.read("/proc/self/exe", limit: 1 << 30)
        let own = try XCTUnwrap(SwiftToolchain.compiler(in: bytes))
        // The same file with another commit in its compiler line (same length: offsets stay valid).
        let hash = try XCTUnwrap(own.split(separator: " ").last?.dropLast())
        let needle = Array(hash.utf8)
        let at = try XCTUnwrap((0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        for k in 0..<needle.count { bytes[at + k] = UInt8(ascii: "0") }
        let refusal = try XCTUnwrap(SwiftToolchain.refusal(plugin: bytes + Array("libswiftCore.so".utf8)))
        XCTAssertTrue(refusal.contains("another Swift toolchain"), refusal)
    }

    func testBrokenFilesGiveNothing() throws {
        let bytes = try BoundedFile.read("/proc/self/exe", limit: 1 << 30)
        for length in [0, 3, 63, 64, 65, 4096] { XCTAssertEqual(ELFSections.comment(in: Array(bytes.prefix(length))), []) }
        var hostile = Array(bytes.prefix(64))
        for k in 0x28..<0x40 { hostile[k] = 0xFF }  // section table, entry size, count and names index all maximal
        XCTAssertEqual(ELFSections.comment(in: hostile), [])
        XCTAssertEqual(ELFSections.comment(in: Array(repeating: 0x7F, count: 1000)), [])
    }
}
