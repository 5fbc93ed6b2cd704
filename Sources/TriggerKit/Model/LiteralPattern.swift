/// A regex that is only literals (docs/strategies.md, "Regex literals"): `^`? run (`.*` run)* `$`?,
/// each run ASCII characters or escaped punctuation. Such a pattern is decided without RE2 by finding
/// its runs in order, ASCII case folded, on texts where that is exactly RE2's answer: no U+017F or
/// U+212A (which RE2 folds with `s` and `k`) and, between runs, no newline (which `.` does not match).
/// Anything else is left to RE2.
@usableFromInline struct LiteralPattern: Sendable {
    /// The pattern as words, laid out for `matches(flat:)`: word 0 holds bit 0 `^`, bit 1 `$` and the run
    /// count from bit 8; then per run its length and its bytes, lowercased and zero-padded to whole words
    /// (`ASCIIFold.equal` reads them so). One buffer, so a program can keep every pattern in one table
    /// and a check reads one place rather than a chain of objects.
    let flat: [UInt64]

    /// The pattern's literals, or nil when it is anything more (read in NFC, as RE2 compiles it).
    init?(nfc p: [UInt8]) {
        var i = 0, end = p.count
        let anchoredStart = p.first == UInt8(ascii: "^")
        if anchoredStart { i = 1 }
        // A final `$` that is not itself escaped (an even run of backslashes before it).
        var slashes = 0
        while end - 2 - slashes >= i, p[end - 2 - slashes] == UInt8(ascii: "\\") { slashes += 1 }
        let anchoredEnd = end > i && p[end - 1] == UInt8(ascii: "$") && slashes % 2 == 0
        if anchoredEnd { end -= 1 }
        var runs: [[UInt8]] = [[]]
        while i < end {
            let c = p[i]
            if c == UInt8(ascii: "."), i + 1 < end, p[i + 1] == UInt8(ascii: "*") {
                guard !runs[runs.count - 1].isEmpty else { return nil }
                runs.append([])
                i += 2
            } else if c == UInt8(ascii: "\\") {
                guard i + 1 < end, RegexLiterals.isPunctuation(p[i + 1]) else { return nil }
                runs[runs.count - 1].append(p[i + 1])
                i += 2
            } else if c >= 0x20, c < 0x7F, !"^$.[]{}()*+?|".utf8.contains(c) {
                runs[runs.count - 1].append(ASCIIFold.lower(c))
                i += 1
            } else {
                return nil
            }
        }
        guard !runs[runs.count - 1].isEmpty else { return nil }
        var flat: [UInt64] = [(anchoredStart ? 1 : 0) | (anchoredEnd ? 2 : 0) | UInt64(runs.count) << 8]
        for run in runs {
            flat.append(UInt64(run.count))
            let padded = run + [UInt8](repeating: 0, count: 8 - run.count % 8)
            // Loaded as stored, so byte k of the run sits at byte k of the words on any byte order.
            padded.withUnsafeBytes { bytes in
                for w in stride(from: 0, to: bytes.count, by: 8) { flat.append(bytes.loadUnaligned(fromByteOffset: w, as: UInt64.self)) }
            }
        }
        self.flat = flat
    }

    /// Whether the pattern matches `text`, or nil when only RE2 can say.
    func matches(_ text: UnsafePointer<UInt8>, count n: Int) -> Bool? {
        flat.withUnsafeBufferPointer { Self.matches(flat: $0.baseAddress!, text, count: n) }
    }

    /// Whether the pattern laid out at `flat` (see `flat`) matches `text`, or nil when only RE2 can say.
    @usableFromInline
    static func matches(flat: UnsafePointer<UInt64>, _ text: UnsafePointer<UInt8>, count n: Int) -> Bool? {
        let head = flat[0], anchoredStart = head & 1 != 0, anchoredEnd = head & 2 != 0, runs = Int(head >> 8)
        if ASCIIFold.foldsOutsideASCII(text, count: n) || runs > 1 && ASCIIFold.hasNewline(text, count: n) { return nil }
        var at = 0, word = 1
        for r in 0..<runs {
            let m = Int(flat[word]), last = r == runs - 1
            let run = UnsafeRawPointer(flat + word + 1).assumingMemoryBound(to: UInt8.self)
            word += 2 + m / 8
            if r == 0 && anchoredStart {
                guard ASCIIFold.equal(text, at: 0, count: n, run, count: m) else { return false }
                at = m
                if last && anchoredEnd && n != m { return false }
                continue
            }
            if last && anchoredEnd { return n - m >= at && ASCIIFold.equal(text, at: n - m, count: n, run, count: m) }
            let first = run[0]
            var found = false
            while at + m <= n {
                if ASCIIFold.lower(text[at]) == first, ASCIIFold.equal(text, at: at, count: n, run, count: m) {
                    at += m
                    found = true
                    break
                }
                at += 1
            }
            if !found { return false }
        }
        return true
    }
}
