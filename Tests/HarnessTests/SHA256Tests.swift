import Harness
import XCTest

/// The SHA extensions' rounds (where this CPU has them) against the portable ones, on every length
/// around the block size and on inputs fed in uneven pieces.
final class SHA256Tests: XCTestCase {
    func testTheExtensionsHashAsThePortableRoundsDo() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return seed
        }
        let data = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: next()) }
        for length in Array(0...200) + [1_000, 4_096, 65_537, 70_000] {
            let bytes = Array(data[0..<length])
            var portable = SHA256(portable: true), fast = SHA256()
            portable.update(bytes)
            // Pieces of 1 to 150 bytes: blocks split across calls and whole blocks straight from the input.
            var at = 0
            while at < length {
                let n = min(Int(next() % 150) + 1, length - at)
                fast.update(Array(bytes[at..<(at + n)]))
                at += n
            }
            XCTAssertEqual(fast.finalize(), portable.finalize(), "length \(length) (extensions: \(SHA256.usesExtensions))")
        }
        var h = SHA256(portable: true)
        h.update(Array("abc".utf8))
        XCTAssertEqual(h.finalize(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
