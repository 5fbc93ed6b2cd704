/// Strings of the scanner: plain runs left in the document, escaped ones decoded into `unescaped`, and
/// the UTF-8 and escape checks strict JSON requires.
extension JSONScanner {
    /// A string entry: its text in place in the document when written without escapes (most are), else
    /// decoded into `unescaped`.
    mutating func parseString() throws(SyntaxError) {
        let start = index
        index += 1  // opening quote
        let runStart = index
        var high: UInt8 = 0  // any byte ≥ 0x80 sets the top bit: validate only then
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { return try parseEscapedString(start: start, runStart: runStart) }
            if b < 0x20 { throw error("control character 0x\(String(b, radix: 16)) inside a string; escape it") }
            high |= b
            index += 1
        }
        let text = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
        index += 1
        if high >= 0x80, !Self.isValidUTF8(text) { throw error("string is not valid UTF-8", at: start) }
        try push(.init(kind: .string, flag: false, payload: UInt64(runStart) << 32 | UInt64(text.count)))
    }

    mutating func parseEscapedString(start: Int, runStart: Int) throws(SyntaxError) {
        let offset = unescaped.count
        var runStart = runStart
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 { throw error("control character 0x\(String(b, radix: 16)) inside a string; escape it") }
            if b == UInt8(ascii: "\\") {
                try roomInUnescaped(index - runStart + 4)  // the run, and at most 4 bytes an escape decodes to
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try parseEscape()
                runStart = index
                continue
            }
            index += 1
        }
        try roomInUnescaped(index - runStart)
        unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        let valid = unescaped.withUnsafeBufferPointer { Self.isValidUTF8(UnsafeBufferPointer(rebasing: $0[offset...])) }
        guard valid else { throw error("string is not valid UTF-8", at: start) }
        try push(.init(kind: .string, flag: true, payload: UInt64(offset) << 32 | UInt64(unescaped.count - offset)))
    }

    /// Makes room for `more` decoded bytes, a growth of the buffer claimed first as the tape's are (an
    /// escaped string decodes to at most its own bytes, but a trigger of them can be the whole file).
    @inline(__always)
    mutating func roomInUnescaped(_ more: Int) throws(SyntaxError) {
        guard unescaped.count + more > unescaped.capacity else { return }
        let capacity = max(2 * unescaped.capacity, unescaped.count + more, 256)
        try claim(capacity, "escaped strings, \(unescaped.count) bytes decoded so far")
        unescaped.reserveCapacity(capacity)
    }

    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = text.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    mutating func parseEscape() throws(SyntaxError) {
        index += 1  // backslash
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): unescaped.append(0x22)
        case UInt8(ascii: "\\"): unescaped.append(0x5C)
        case UInt8(ascii: "/"): unescaped.append(0x2F)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            UTF8.encode(u) { unescaped.append($0) }
        default:
            index -= 1
            throw error("invalid escape \\\(describeCurrent())")
        }
    }

    mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - 55)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }
}
