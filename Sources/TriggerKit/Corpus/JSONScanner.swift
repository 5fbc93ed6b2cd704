/// Why a document could not be parsed, and where.
package struct JSONSyntaxError: Error, CustomStringConvertible, Equatable {
    package let line: Int
    package let column: Int
    package let reason: String
    /// The document may be valid, but its values need more memory than the tape was allowed.
    package var exceedsMemory = false
    package var description: String { "line \(line), column \(column): \(reason)" }
}

/// The strict RFC 8259 parser behind `JSONTape` (and so `JSONValue.parse`), hardened for hostile input:
/// bounded nesting depth (no stack overflow), numbers out of `Double` range refused, invalid UTF-8,
/// control characters and duplicate object keys refused, errors located by line and column.
struct JSONScanner {
    typealias SyntaxError = JSONSyntaxError

    var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var index = 0
    var entries: [JSONTape.Entry]
    var unescaped: [UInt8]
    let maxDepth: Int
    /// The key of the root object's member whose array value is only delimited, not parsed.
    var deferring: [UInt8]?
    /// Where each doubling of `entries` is claimed first (nil: unlimited).
    var allowance: MemoryAllowance?
    /// The deferred array's split points: where every `splitEvery`-th element starts (`skipContainer`).
    var splits: [Int] = []

    init(entries: [JSONTape.Entry], unescaped: [UInt8], maxDepth: Int) {
        self.entries = entries
        self.unescaped = unescaped
        self.maxDepth = maxDepth
    }

    static func error(_ bytes: [UInt8], _ reason: String, at position: Int) -> SyntaxError {
        bytes.withUnsafeBufferPointer { error($0, reason, at: position) }
    }

    static func error(_ bytes: UnsafeBufferPointer<UInt8>, _ reason: String, at position: Int) -> SyntaxError {
        let end = min(position, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return SyntaxError(line: line, column: end - lineStart + 1, reason: reason)
    }

    func error(_ reason: String, at position: Int? = nil) -> SyntaxError { Self.error(bytes, reason, at: position ?? index) }

    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }

    mutating func skipWhitespace() { index = Self.skipWhitespace(bytes, from: index) }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    mutating func parseValue(depth: Int) throws(SyntaxError) {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try expectLiteral("true"); try push(.init(kind: .bool, flag: true, payload: 0))
        case UInt8(ascii: "f"): try expectLiteral("false"); try push(.init(kind: .bool, flag: false, payload: 0))
        case UInt8(ascii: "n"): try expectLiteral("null"); try push(.init(kind: .null, flag: false, payload: 0))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let ok = literal.withUTF8Buffer { lit in
            guard index + count <= bytes.count else { return false }
            for i in 0..<count where bytes[index + i] != lit[i] { return false }
            return true
        }
        guard ok else { throw error("invalid literal, expected \(literal)") }
        index += count
    }

    /// Appends an entry to the tape, its growth claimed first.
    @inline(__always)
    mutating func push(_ entry: JSONTape.Entry) throws(SyntaxError) {
        if entries.count == entries.capacity { try grow() }
        entries.append(entry)
    }

    /// Doubles the tape's capacity, when the allowance has room for the new buffer as measured now
    /// (the allocator keeps earlier buffers mapped, which only a measurement sees).
    @inline(never)
    mutating func grow() throws(SyntaxError) {
        let capacity = max(2 * entries.capacity, 256), bytes = capacity * MemoryLayout<JSONTape.Entry>.stride
        try claim(bytes, "\(MemoryLayout<JSONTape.Entry>.stride) bytes per JSON value, \(entries.count) values so far")
        entries.reserveCapacity(capacity)
    }

    /// Claims `bytes` about to be allocated from the allowance, or refuses where parsing stands,
    /// saying in `grown` what was growing.
    func claim(_ bytes: Int, _ grown: @autoclosure () -> String) throws(SyntaxError) {
        guard let allowance else { return }
        do { try allowance.claim(bytes) } catch {
            var e = self.error("parsing it \(error.phrase) (\(grown())); \(CorpusDecoder.memoryFix)")
            e.exceedsMemory = true
            throw e
        }
    }

    /// Closes the container whose entry is at `open`: the index past its contents and its count.
    mutating func close(_ open: Int, count: Int) {
        entries[open].payload = UInt64(entries.count) << 32 | UInt64(count)
    }

    mutating func parseObject(depth: Int) throws(SyntaxError) {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1  // {
        let open = entries.count
        try push(.init(kind: .object, flag: false, payload: 0))
        var count = 0
        // Duplicates by scanning while the object is small (most are), by a set past that.
        var seen = Set<String>()
        var nonASCII = false
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return close(open, count: 0)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let keyStart = index
            try parseString()
            let key = entries.count - 1
            if isDuplicate(key: key, in: open, count: count, nonASCII: &nonASCII, seen: &seen) {
                throw error("duplicate member name \"\(text(key))\"", at: keyStart)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':'")
            }
            index += 1
            skipWhitespace()
            if depth == 1, let deferring, index < bytes.count, bytes[index] == UInt8(ascii: "["),
               withText(key, { $0.elementsEqual(deferring) }),
               let (end, n) = Self.skipContainer(bytes, open: index, splits: &splits) {
                try push(.init(kind: .deferred, flag: false, payload: UInt64(index) << 32 | UInt64(n)))
                index = end
            } else {
                try parseValue(depth: depth)  // a list that never closes is parsed, for its precise error
            }
            count += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return close(open, count: count) }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    /// Whether key entry `key` repeats one of the `count` members before it in the object at `open`:
    /// the same bytes, or two canonically equivalent spellings (one name, whatever the object's size;
    /// an ASCII name can equal a non-ASCII one, as "K" equals the Kelvin sign). `nonASCII` says whether
    /// an earlier key held a byte outside ASCII (set here), so ASCII objects compare bytes only.
    func isDuplicate(key: Int, in open: Int, count: Int, nonASCII: inout Bool, seen: inout Set<String>) -> Bool {
        if count < 16 {
            let keyIsASCII = withText(key) { !Self.holdsNonASCII($0) }
            let earlierNonASCII = nonASCII
            if !keyIsASCII { nonASCII = true }
            let length = entries[key].low
            var keyText: String?  // decoded once, when a comparison needs it
            var k = open + 1
            while k < key {
                if entries[k].low == length, withText(k, { a in withText(key) { b in a.elementsEqual(b) } }) { return true }
                if !keyIsASCII || (earlierNonASCII && withText(k, Self.holdsNonASCII)) {
                    if keyText == nil { keyText = text(key) }
                    if text(k) == keyText { return true }
                }
                k = entries[k + 1].end(at: k + 1)
            }
            return false
        }
        if seen.isEmpty {
            var k = open + 1
            while k < key {
                seen.insert(text(k))
                k = entries[k + 1].end(at: k + 1)
            }
        }
        return !seen.insert(text(key)).inserted
    }

    /// Two different byte strings can be one name as Swift's `String` compares them (as a
    /// `Set<String>` of names does) only when one holds a byte outside ASCII.
    static func holdsNonASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool { text.contains { $0 >= 0x80 } }

    func withText<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        entries[i].withText(document: bytes, unescaped: unescaped, body)
    }

    func text(_ i: Int) -> String { withText(i) { String(decoding: $0, as: UTF8.self) } }

    mutating func parseArray(depth: Int) throws(SyntaxError) {
        if depth > maxDepth { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1  // [
        let open = entries.count
        try push(.init(kind: .array, flag: false, payload: 0))
        var count = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return close(open, count: 0)
        }
        while true {
            skipWhitespace()
            try parseValue(depth: depth)
            count += 1
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return close(open, count: count) }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    /// An integer literal that fits `Int64` becomes `.int` (read digit by digit, no text made);
    /// anything else a finite `Double`.
    mutating func parseNumber() throws(SyntaxError) {
        let start = index
        var isInteger = true
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        var magnitude: UInt64 = 0
        var fits = true
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(bytes[index] - 0x30))
                if o1 || o2 { fits = false }
                magnitude = s
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger, fits, magnitude <= (negative ? 1 << 63 : UInt64(Int64.max)) {
            let value = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
            try push(.init(kind: .int, flag: false, payload: UInt64(bitPattern: value)))
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw error("number \(text.count > 40 ? String(text.prefix(40)) + "…" : text) is out of range", at: start)
        }
        try push(.init(kind: .double, flag: false, payload: d.bitPattern))
    }

    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Elements between two split points of a deferred array: a list that long can be parsed in pieces.
    static let splitEvery = 4_096

    /// The byte index just past the array or object opening at `open`, and how many elements or
    /// members it holds at its top level, found without parsing (strings skipped by their quotes); nil
    /// when it never closes. A parse of each element later checks what this skips over. `splits` is
    /// given the byte index just past the comma before every `splitEvery`-th element.
    static func skipContainer(_ bytes: UnsafeBufferPointer<UInt8>, open: Int, splits: inout [Int]) -> (end: Int, count: Int)? {
        var depth = 0
        var commas = 0
        var empty = true
        var i = open
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                if depth == 1 { empty = false }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1 { empty = false }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return (i + 1, empty ? 0 : commas + 1) }
            case UInt8(ascii: ","):
                if depth == 1 {
                    commas += 1
                    if commas % splitEvery == 0 { splits.append(i + 1) }
                }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default:
                if depth == 1 { empty = false }
            }
            i += 1
        }
        return nil
    }
}
