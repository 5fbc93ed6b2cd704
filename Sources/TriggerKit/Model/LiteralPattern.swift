/// A regex that is only literals (docs/strategies.md, "Regex literals"): `^`? run (`.*` run)* `$`?,
/// each run ASCII characters or escaped punctuation. Such a pattern is decided without RE2 by finding
/// its runs in order, ASCII case folded, on texts where that is exactly RE2's answer: no U+017F or
/// U+212A (which RE2 folds with `s` and `k`) and, between runs, no newline (which `.` does not match).
/// Anything else is left to RE2.
struct LiteralPattern: Sendable {
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// Lowercased, each non-empty, zero-padded to whole words (`ASCIIFold.equal` reads them so).
    let runs: [[UInt8]]
    let lengths: [Int]

    /// The pattern's literals, or nil when it is anything more (read in NFC, as RE2 compiles it).
    init?(nfc p: [UInt8]) {
        var i = 0, end = p.count
        anchoredStart = p.first == UInt8(ascii: "^")
        if anchoredStart { i = 1 }
        // A final `$` that is not itself escaped (an even run of backslashes before it).
        var slashes = 0
        while end - 2 - slashes >= i, p[end - 2 - slashes] == UInt8(ascii: "\\") { slashes += 1 }
        anchoredEnd = end > i && p[end - 1] == UInt8(ascii: "$") && slashes % 2 == 0
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
        lengths = runs.map(\.count)
        self.runs = runs.map { $0 + [UInt8](repeating: 0, count: 8 - $0.count % 8) }
    }

    /// Whether the pattern matches `text`, or nil when only RE2 can say.
    func matches(_ text: UnsafePointer<UInt8>, count n: Int) -> Bool? {
        if ASCIIFold.foldsOutsideASCII(text, count: n) || runs.count > 1 && ASCIIFold.hasNewline(text, count: n) { return nil }
        var at = 0
        for r in runs.indices {
            let m = lengths[r], last = r == runs.count - 1
            let found = runs[r].withUnsafeBufferPointer { run -> Bool in
                let run = run.baseAddress!
                if r == 0 && anchoredStart {
                    guard ASCIIFold.equal(text, at: 0, count: n, run, count: m) else { return false }
                    at = m
                    return !(last && anchoredEnd) || n == m
                }
                if last && anchoredEnd { return n - m >= at && ASCIIFold.equal(text, at: n - m, count: n, run, count: m) }
                let first = run[0]
                while at + m <= n {
                    if ASCIIFold.lower(text[at]) == first, ASCIIFold.equal(text, at: at, count: n, run, count: m) {
                        at += m
                        return true
                    }
                    at += 1
                }
                return false
            }
            if !found { return false }
        }
        return true
    }
}
