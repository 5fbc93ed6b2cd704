import XCTest
import TriggerKit

final class SymbolTableTests: XCTestCase {
    func testInternAndLookupManyStrings() {
        var table = SymbolTable()
        let strings = (0..<5_000).map { "s\($0)" } + ["", "a", "event_name_that_is_longer_than_sixteen_bytes"]
        for (k, s) in strings.enumerated() { XCTAssertEqual(table.intern(s), Int32(k)) }
        // Interning again returns the same id and adds nothing.
        for (k, s) in strings.enumerated() { XCTAssertEqual(table.intern(s), Int32(k)) }
        XCTAssertEqual(table.count, strings.count)
        for (k, s) in strings.enumerated() { XCTAssertEqual(table.lookup(s), Int32(k), s) }
        XCTAssertNil(table.lookup("s5000"))
        XCTAssertNil(table.lookup("never interned"))
    }

    /// Lookups follow Swift's String equality (canonical equivalence), as `reference` compares strings:
    /// U+212A KELVIN SIGN equals "K", and a decomposed "é" equals the precomposed one.
    func testCanonicallyEquivalentStringsShareAnID() {
        var table = SymbolTable()
        let kelvin = table.intern("\u{212A}")
        XCTAssertEqual(table.lookup("K"), kelvin)
        XCTAssertEqual(table.intern("K"), kelvin)
        XCTAssertEqual(table.lookup("K"), kelvin)
        let composed = table.intern("caf\u{E9}")
        XCTAssertEqual(table.lookup("cafe\u{301}"), composed)

        var asciiFirst = SymbolTable()
        let k = asciiFirst.intern("K")
        XCTAssertEqual(asciiFirst.lookup("\u{212A}"), k)
        XCTAssertEqual(asciiFirst.intern("\u{212A}"), k)
        XCTAssertNil(asciiFirst.lookup("k"))
    }

    /// An ASCII string interned after a canonically equal non-ASCII one, then enough strings to grow the
    /// fast table several times: every lookup still finds the first id.
    func testGrowthAfterACanonicallyEqualIntern() {
        var table = SymbolTable()
        let kelvin = table.intern("\u{212A}")
        XCTAssertEqual(table.intern("K"), kelvin)
        for k in 0..<1_000 { table.intern("key\(k)") }
        XCTAssertEqual(table.lookup("K"), kelvin)
        XCTAssertEqual(table.lookup("\u{212A}"), kelvin)
        XCTAssertEqual(table.lookup("key999"), 1_000)
    }

    /// The per-build resolver answers exactly as the table does, through its cache: small and large
    /// strings, canonically equal spellings (same id, other representation), strings never interned,
    /// and far more distinct strings than cache slots, each looked up several times in varying order.
    func testResolverAgreesWithTheTable() {
        var table = SymbolTable()
        let interned = (0..<3_000).map { "k\($0)" } + ["\u{212A}", "caf\u{E9}", String(repeating: "long-key-", count: 5)]
        for s in interned { table.intern(s) }
        let queries = interned + ["K", "cafe\u{301}", "k3000", "never interned", "", String(repeating: "long-key-", count: 5)]
        let resolver = SymbolTable.Resolver(table)
        var rng = SystemRandomNumberGenerator()
        for round in 0..<4 {
            for s in (round.isMultiple(of: 2) ? queries : queries.shuffled(using: &rng)) {
                // A fresh copy each time: equal strings need not share a representation.
                let copy = String(decoding: Array(s.utf8), as: UTF8.self)
                XCTAssertEqual(resolver.lookup(s), table.lookup(s), s)
                XCTAssertEqual(resolver.lookup(copy), table.lookup(s), s)
            }
        }
        XCTAssertEqual(resolver.lookup("K"), table.lookup("\u{212A}"))
        XCTAssertNil(resolver.lookup("k3000"))
    }
}
