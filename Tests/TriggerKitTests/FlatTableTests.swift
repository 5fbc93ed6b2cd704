import TriggerKit
import XCTest

final class FlatTableTests: XCTestCase {
    /// Every key stored is found with its value, and keys differing in one field only are told apart;
    /// absent keys are not found, also in a table whose probes wrap around its end.
    func testLookupsAgreeWithADictionary() {
        var rng = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 3, 17, 1000] {
            var expected: [CrowdIndex.EqualityKey: Int32] = [:]
            while expected.count < size {
                let k = CrowdIndex.EqualityKey(key: Int32.random(in: 0..<8, using: &rng), tag: UInt8.random(in: 0...3, using: &rng),
                                               bits: UInt64.random(in: 0..<64, using: &rng))!
                expected[k] = Int32(expected.count)
            }
            let table = FlatTable<Int32>(expected.map { ($0.key, $0.value) }, filler: -1)
            XCTAssertEqual(table.count, size)
            for key in 0..<9 {
                for tag in 0...3 {
                    for bits in 0..<66 {
                        let k = CrowdIndex.EqualityKey(key: Int32(key), tag: UInt8(tag), bits: UInt64(bits))!
                        XCTAssertEqual(table[k], expected[k], "size \(size), \(k)")
                    }
                }
            }
        }
    }
}
