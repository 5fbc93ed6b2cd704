/// The literal text any match of a regex must contain (docs/strategies.md, "Regex literals"), read
/// from the pattern as RE2 compiles it (in NFC) by a deliberately small parser: a run of ASCII
/// literal characters is required unless a quantifier, an alternation or a group could skip it.
/// Anything the parser does not understand ends a run, or gives up on the whole pattern; both only
/// make the index return more candidates, never fewer. Letters are lowercased: the search is
/// case-insensitive, and `LiteralProbe` folds the text the same way.
package struct RegexLiterals: Equatable {
    /// Required at the start of the text (the pattern starts with `^` and a literal).
    package var prefix: [UInt8]?
    /// Required somewhere in the text, each non-empty.
    package var factors: [[UInt8]] = []

    /// `pattern` as written in a corpus (compiled in NFC, so read in NFC).
    package init(pattern: String) {
        self.init(nfcBytes: Array(CanonicalText.nfc(pattern).utf8))
    }

    init(nfcBytes p: [UInt8]) {
        var runs: [(bytes: [UInt8], anchored: Bool)] = []
        var current: [UInt8] = []
        var anchored = p.first == UInt8(ascii: "^")
        var i = anchored ? 1 : 0
        var lastWasLiteral = false
        func flush() {
            if !current.isEmpty { runs.append((current, anchored)) }
            current = []
            anchored = false
            lastWasLiteral = false
        }
        func giveUp() -> RegexLiterals { RegexLiterals(prefix: nil, factors: []) }
        while i < p.count {
            let c = p[i]
            switch c {
            case UInt8(ascii: "|"), UInt8(ascii: "("), UInt8(ascii: ")"):
                self = giveUp()
                return
            case UInt8(ascii: "\\"):
                guard i + 1 < p.count else { self = giveUp(); return }
                let next = p[i + 1]
                if Self.isPunctuation(next) {
                    current.append(next)
                    lastWasLiteral = true
                } else if "dDwWsSbB".utf8.contains(next) {
                    flush()
                } else {
                    self = giveUp()  // \x41, \p{L}, \Q…\E, \z, octal: not read here
                    return
                }
                i += 2
                continue
            case UInt8(ascii: "["):
                flush()
                var j = i + 1
                if j < p.count, p[j] == UInt8(ascii: "^") { j += 1 }
                if j < p.count, p[j] == UInt8(ascii: "]") { j += 1 }
                while j < p.count, p[j] != UInt8(ascii: "]") {
                    if p[j] == UInt8(ascii: "[") { self = giveUp(); return }  // [[:alpha:]]
                    j += p[j] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard j < p.count else { self = giveUp(); return }
                i = j + 1
                continue
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                // The atom before may occur zero times: it leaves the run. (A lazy `*?` or `+?` lands
                // here after a flush and changes nothing.)
                if lastWasLiteral { current.removeLast() }
                flush()
                if c == UInt8(ascii: "{") {
                    guard let close = p[i...].firstIndex(of: UInt8(ascii: "}")) else { self = giveUp(); return }
                    i = close
                }
            case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                flush()  // `+`: the atom stays in the run, but what follows need not touch it
            default:
                if c >= 0x20, c < 0x7F {
                    current.append(ASCIIFold.lower(c))
                    lastWasLiteral = true
                } else {
                    flush()  // non-ASCII or a control byte: ends the run (continuation bytes too)
                }
            }
            i += 1
        }
        flush()
        prefix = runs.first { $0.anchored }?.bytes
        factors = runs.map(\.bytes)
    }

    private init(prefix: [UInt8]?, factors: [[UInt8]]) {
        self.prefix = prefix
        self.factors = factors
    }

    static func isPunctuation(_ c: UInt8) -> Bool {
        c > 0x20 && c < 0x7F && !(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
            && !(c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) && !(c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }
}
