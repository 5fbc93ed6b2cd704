/// How a crowd files regexes by their required literals (`RegexLiterals`) in its equality table, and
/// how a probe finds them in an event's string. Two kinds of key, beside the equality kinds 0–3:
/// - a required prefix of L bytes (kind 15 + L, L = 1…64, longer prefixes cut to 64): a hash of
///   them; a probe hashes the text's words once, rolling, for all the prefix lengths the crowd holds
///   (`PrefixHasher`);
/// - a gram (kind 4 + g, g = 1…8): g bytes of a required factor, as a little-endian word; a probe
///   reads the word at every position of the text, once for each gram length the crowd holds.
/// Text is folded as RE2 folds case (`ASCIIFold`); a text holding U+017F or U+212A makes a probe give
/// up and return every regex it filed.
enum LiteralKeys {
    static func prefixKind(_ length: Int) -> UInt8 { UInt8(15 + length) }
    /// The prefix length of a prefix kind; 0 for a gram kind.
    static func prefixLength(_ kind: UInt8) -> Int { kind >= 16 ? Int(kind) - 15 : 0 }
    static func gramKind(_ g: Int) -> UInt8 { UInt8(4 + g) }
    static let maxGram = 8
    static let maxPrefix = 64

    /// Every key `literals` could be filed under, for property `key`: its prefix, and the grams of its
    /// factors (a factor of up to 8 bytes is one gram; a longer one, each 8-byte window).
    static func keys(_ literals: RegexLiterals, property key: Int32) -> [CrowdIndex.EqualityKey] {
        var keys: [CrowdIndex.EqualityKey] = []
        if let prefix = literals.prefix {
            let bytes = Array(prefix.prefix(maxPrefix))
            keys.append(CrowdIndex.EqualityKey(key: key, kind: prefixKind(bytes.count), bits: bytes.withUnsafeBufferPointer { prefixHash($0.baseAddress!, count: $0.count) }))
        }
        for factor in literals.factors {
            let g = min(factor.count, maxGram)
            factor.withUnsafeBufferPointer { f in
                for start in 0...(factor.count - g) {
                    keys.append(CrowdIndex.EqualityKey(key: key, kind: gramKind(g), bits: ASCIIFold.word(f.baseAddress!, at: start, count: factor.count) & ASCIIFold.mask(g)))
                }
            }
        }
        return keys
    }

    /// The hash of a literal prefix: the same as a probe's `PrefixHasher` gives for a text that starts with it.
    static func prefixHash(_ text: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var hasher = PrefixHasher(text, count: count)
        return hasher.hash(length: count)
    }

    /// Hashes of a text's prefixes of rising lengths, each word folded and mixed once for them all.
    struct PrefixHasher {
        let text: UnsafePointer<UInt8>, n: Int
        /// The state after the first `done` bytes (whole words).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15, done = 0

        @inline(__always)
        init(_ text: UnsafePointer<UInt8>, count n: Int) {
            self.text = text
            self.n = n
        }

        @inline(__always)
        static func mix(_ h: UInt64) -> UInt64 {
            let m = h &* 0xBF58_476D_1CE4_E5B9
            return m ^ m >> 31
        }

        /// The hash of the folded first `length` bytes (at most the text's, and no shorter than the last asked).
        @inline(__always)
        mutating func hash(length: Int) -> UInt64 {
            while done &+ 8 <= length {
                state = Self.mix(state ^ ASCIIFold.word(text, at: done, count: n))
                done &+= 8
            }
            var h = state
            if done < length { h = Self.mix(h ^ ASCIIFold.word(text, at: done, count: n) & ASCIIFold.mask(length &- done)) }
            return Self.mix(h ^ UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
        }
    }
}

/// A bit per hashed literal key of a crowd, in a few hundred kilobytes at most: a probe of a key the
/// crowd does not hold (most positions of most texts) is answered here, in cache, before the
/// equality table (megabytes at 100,000 rules, a cache miss per lookup) is read.
struct LiteralFilter: Sendable {
    let words: FrozenBuffer<UInt64>
    let shift: UInt64

    init(_ keys: [CrowdIndex.EqualityKey]) {
        var bits = 512
        while bits < 32 * keys.count && bits < 1 << 21 { bits *= 2 }  // 256 KB at most: stays in L2
        shift = UInt64(64 - bits.trailingZeroBitCount)
        var words = [UInt64](repeating: 0, count: bits / 64)
        for k in keys {
            let b = Self.bit(k.key, k.kind, k.bits, shift: shift)
            words[b >> 6] |= 1 << UInt64(b & 63)
        }
        self.words = FrozenBuffer(words)
    }

    @inline(__always)
    static func bit(_ key: Int32, _ kind: UInt8, _ bits: UInt64, shift: UInt64) -> Int {
        var h = bits &* 0xD6E8_FEB8_6659_FD93 ^ UInt64(UInt32(bitPattern: key)) &<< 40 ^ UInt64(kind) &<< 32
        h = (h ^ (h >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// The probe's view: the words' address and the shift (copying it retains nothing).
    struct View: @unchecked Sendable, BitwiseCopyable {
        let words: UnsafePointer<UInt64>
        let shift: UInt64

        @inline(__always)
        func mayHold(_ key: Int32, _ kind: UInt8, _ bits: UInt64) -> Bool {
            let b = LiteralFilter.bit(key, kind, bits, shift: shift)
            return words[b >> 6] & (1 << UInt64(b & 63)) != 0
        }
    }

    var view: View { View(words: words.base, shift: shift) }
}

/// The regex-literal side of one crowd's index (its keys are in the crowd's equality table).
struct CrowdLiterals: Sendable {
    /// The conditions filed under literal keys, all returned when a probe cannot fold a text.
    let entries: FrozenBuffer<Int32>
    /// The lengths of the literal prefixes filed, ascending.
    let prefixLengths: FrozenBuffer<Int32>
    let filter: LiteralFilter
    let raw: Raw

    /// The probe's view (copying it retains nothing).
    struct Raw: @unchecked Sendable, BitwiseCopyable {
        /// The crowd's conditions (the marks a probe needs).
        let conditions: Int
        let entries: UnsafeMutablePointer<Int32>
        let entryCount: Int
        let prefixLengths: UnsafeMutablePointer<Int32>
        let prefixLengthCount: Int
        /// Bit g for each gram length filed.
        let gramLengths: UInt16
        let filter: LiteralFilter.View
    }

    init(conditions: Int = 0, entries: [Int32] = [], prefixLengths: [Int32] = [], gramLengths: UInt16 = 0, filter: LiteralFilter = LiteralFilter([])) {
        self.entries = FrozenBuffer(entries)
        self.prefixLengths = FrozenBuffer(prefixLengths)
        self.filter = filter
        raw = Raw(conditions: conditions, entries: self.entries.base, entryCount: entries.count, prefixLengths: self.prefixLengths.base,
                  prefixLengthCount: prefixLengths.count, gramLengths: gramLengths, filter: filter.view)
    }
}
