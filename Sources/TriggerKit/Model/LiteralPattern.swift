/// A regex that is only literals (docs/strategies.md, "Regex literals"): `^`? run (`.*` run)* `$`?,
/// each run ASCII characters or escaped punctuation. Such a pattern is decided without RE2 by finding
/// its runs in order, ASCII case folded, on texts where that is exactly RE2's answer: no U+017F or
/// U+212A (which RE2 folds with `s` and `k`) and, between runs, no newline (which `.` does not match).
/// Anything else is left to RE2.
struct LiteralPattern: Sendable {
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// Lowercased, each non-empty.
    let runs: [[UInt8]]

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
                runs[runs.count - 1].append(RegexLiterals.lower(c))
                i += 1
            } else {
                return nil
            }
        }
        guard !runs[runs.count - 1].isEmpty else { return nil }
        self.runs = runs
    }

    /// Whether the pattern matches `text`, or nil when only RE2 can say.
    func matches(_ text: UnsafePointer<UInt8>, count n: Int) -> Bool? {
        var k = 0
        while k < n {
            let b = text[k]
            if b >= 0x80, b == 0xC5 || b == 0xE2 { return nil }  // maybe ſ or K; checked no closer
            if b == 0x0A, runs.count > 1 { return nil }
            k &+= 1
        }
        var at = 0
        for (r, run) in runs.enumerated() {
            let last = r == runs.count - 1
            if r == 0 && anchoredStart {
                guard Self.equal(text, at: 0, count: n, run) else { return false }
                if last && anchoredEnd { return n == run.count }
                at = run.count
            } else if last && anchoredEnd {
                return n - run.count >= at && Self.equal(text, at: n - run.count, count: n, run)
            } else {
                guard let found = Self.find(run, in: text, from: at, count: n) else { return false }
                at = found + run.count
            }
        }
        return true
    }

    @inline(__always)
    static func equal(_ text: UnsafePointer<UInt8>, at: Int, count n: Int, _ run: [UInt8]) -> Bool {
        guard at >= 0, at + run.count <= n else { return false }
        for j in run.indices where RegexLiterals.lower(text[at + j]) != run[j] { return false }
        return true
    }

    static func find(_ run: [UInt8], in text: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int? {
        guard n - run.count >= from else { return nil }
        for at in from...(n - run.count) where equal(text, at: at, count: n, run) { return at }
        return nil
    }
}
