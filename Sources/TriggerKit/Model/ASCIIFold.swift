/// Case folding of text as RE2 folds it for a case-insensitive search, eight bytes at a time: ASCII
/// letters lowercased, every other byte unchanged. Exact on texts without U+017F (ſ, folded with `s`)
/// and U+212A (Kelvin, folded with `k`), the only code points outside ASCII whose case orbit holds an
/// ASCII letter; `foldsOutsideASCII` finds them. Used by the regex literal index (`LiteralKeys`) and by
/// patterns decided without RE2 (`LiteralPattern`).
package enum ASCIIFold {
    static let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080

    /// ASCII capitals lowercased in all eight bytes at once; other bytes unchanged.
    @inline(__always)
    static func fold(_ w: UInt64) -> UInt64 {
        let ascii = w & ~high
        let atLeastA = ascii &+ ones &* (0x80 - 0x41), pastZ = ascii &+ ones &* (0x80 - 0x5B)
        let upper = atLeastA & ~pastZ & ~w & high
        return w | upper >> 2
    }

    @inline(__always)
    package static func lower(_ c: UInt8) -> UInt8 { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c }

    /// The low `g` bytes of a word.
    @inline(__always)
    static func mask(_ g: Int) -> UInt64 { g >= 8 ? ~0 : (1 &<< UInt64(8 &* g)) &- 1 }

    /// Up to 8 bytes of `text` from `at` (below `n`), as a little-endian word, unfolded (zero past `n`).
    @inline(__always)
    static func load(_ text: UnsafePointer<UInt8>, at: Int, count n: Int) -> UInt64 {
        if at &+ 8 <= n { return UInt64(littleEndian: UnsafeRawPointer(text + at).loadUnaligned(as: UInt64.self)) }
        // Near the end of a text of 8 bytes or more: its last word, shifted (no read past `n`).
        if n >= 8 { return UInt64(littleEndian: UnsafeRawPointer(text + (n &- 8)).loadUnaligned(as: UInt64.self)) &>> UInt64(8 &* (at &+ 8 &- n)) }
        var w: UInt64 = 0, k = n &- 1
        while k >= at {
            w = w &<< 8 | UInt64(text[k])
            k &-= 1
        }
        return w
    }

    /// Up to 8 bytes of `text` from `at` as a little-endian word, folded (zero past `n`).
    @inline(__always)
    package static func word(_ text: UnsafePointer<UInt8>, at: Int, count n: Int) -> UInt64 { fold(load(text, at: at, count: n)) }

    /// Whether some byte of `w` is zero.
    @inline(__always)
    static func hasZeroByte(_ w: UInt64) -> Bool { (w &- ones) & ~w & high != 0 }

    /// Whether `text` holds U+017F or U+212A, which RE2 folds with `s` and `k`. Pure ASCII words are
    /// passed eight bytes at a time.
    @inline(__always)
    package static func foldsOutsideASCII(_ text: UnsafePointer<UInt8>, count n: Int) -> Bool {
        var k = 0
        while k &+ 8 <= n, load(text, at: k, count: n) & high == 0 { k &+= 8 }
        while k < n {
            let b = text[k]
            if b == 0xC5, k &+ 1 < n, text[k &+ 1] == 0xBF { return true }
            if b == 0xE2, k &+ 2 < n, text[k &+ 1] == 0x84, text[k &+ 2] == 0xAA { return true }
            k &+= 1
        }
        return false
    }

    /// Whether `text` holds a newline.
    @inline(__always)
    static func hasNewline(_ text: UnsafePointer<UInt8>, count n: Int) -> Bool {
        var k = 0
        while k &+ 8 <= n {
            if hasZeroByte(load(text, at: k, count: n) ^ ones &* 0x0A) { return true }
            k &+= 8
        }
        while k < n {
            if text[k] == 0x0A { return true }
            k &+= 1
        }
        return false
    }

    /// Whether the `m` bytes of `text` from `at`, folded, are `run` (folded, and readable in whole
    /// words: zero-padded to a multiple of 8 bytes).
    @inline(__always)
    static func equal(_ text: UnsafePointer<UInt8>, at: Int, count n: Int, _ run: UnsafePointer<UInt8>, count m: Int) -> Bool {
        guard at >= 0, at &+ m <= n else { return false }
        var j = 0
        while j < m {
            let r = UInt64(littleEndian: UnsafeRawPointer(run + j).loadUnaligned(as: UInt64.self))
            if (word(text, at: at &+ j, count: n) ^ r) & mask(m &- j) != 0 { return false }
            j &+= 8
        }
        return true
    }
}
