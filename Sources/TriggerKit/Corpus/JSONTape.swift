/// A parsed JSON value kept flat: one 16-byte entry per value (and per object key), strings left in the
/// document's bytes, nothing allocated per value. A tree of `JSONValue`s cost a `String` per key, an
/// array per object and most of the time of loading a large corpus; a tape costs one array, reused.
///
/// Entries are in document order. A container's entry is followed by its contents (for an object, key
/// then value, per member) and records the index past them, so a reader skips a subtree in one step.
package final class JSONTape {
    /// Deepest nesting of arrays and objects accepted.
    package static let defaultMaxDepth = 256

    package enum Kind: UInt8 {
        case null, bool, int, double, string, array, object
        /// An array left unparsed in the document (`parseDocument(deferring:)`), read element by element.
        case deferred
    }

    struct Entry {
        var kind: Kind
        /// A boolean's value; for a string, whether its text lives in `unescaped` rather than `bytes`.
        var flag: Bool
        /// String: offset << 32 | length. Container: index past its contents << 32 | count. Number: its
        /// bits. Deferred array: the byte offset of its `[` << 32 | count.
        var payload: UInt64

        var high: Int { Int(payload >> 32) }

        /// The index past this entry, at `i`, and everything it contains (a deferred array's contents
        /// are not entries).
        func end(at i: Int) -> Int { kind == .array || kind == .object ? high : i + 1 }
        var low: Int { Int(payload & 0xFFFF_FFFF) }

        /// A string entry's text: in `unescaped` when written with escapes, else in the document.
        func withText<R>(document: UnsafeBufferPointer<UInt8>, unescaped: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if flag { return unescaped.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[high..<(high + low)])) } }
            return body(UnsafeBufferPointer(rebasing: document[high..<(high + low)]))
        }
    }

    /// The whole document; entries point into it (offsets fit 32 bits: documents are at most 4 GiB).
    let bytes: [UInt8]
    // Unchecked: a tape is read and written by one decoder at a time, and checking each access to
    // these arrays dynamically was a tenth of decoding.
    @exclusivity(unchecked) var entries: [Entry] = []
    /// The text of strings written with escapes, decoded.
    @exclusivity(unchecked) var unescaped: [UInt8] = []
    /// The path of entry 0 in the document ("" for the root, "triggers[3]" for a streamed element).
    @exclusivity(unchecked) var rootPath = ""

    /// Where the tape claims its growth (nil: unlimited).
    package var allowance: MemoryAllowance?
    /// Where the deferred array's every `JSONScanner.splitEvery`-th element starts, as the last parse
    /// delimited it (byte indices just past a comma).
    private(set) var splits: [Int] = []
    /// The bytes of the document the last `parse` read, and the byte index just past them.
    private(set) var parsedBytes = 0
    private(set) var parsedEnd = 0

    package init(bytes: [UInt8], allowance: MemoryAllowance? = nil) {
        self.bytes = bytes
        self.allowance = allowance
    }

    /// Parses the whole document into the tape; trailing non-whitespace is an error. An array that is
    /// the value of the root object's member `deferring` is only delimited (a `deferred` entry), to be
    /// parsed one element at a time by `forEachDeferredElement`.
    package func parseDocument(maxDepth: Int = JSONTape.defaultMaxDepth, deferring: String? = nil) throws(JSONSyntaxError) {
        var end = try parse(from: 0, depth: 0, maxDepth: maxDepth, rootPath: "", deferring: deferring)
        bytes.withUnsafeBufferPointer { end = JSONScanner.skipWhitespace($0, from: end) }
        if end < bytes.count { throw JSONScanner.error(bytes, "unexpected text after the JSON value", at: end) }
    }

    /// Replaces the tape's contents with the value starting at byte `from` (after whitespace), nested
    /// `depth` levels deep in its document; returns the byte index just past it.
    func parse(from: Int, depth: Int, maxDepth: Int, rootPath: String, deferring: String? = nil) throws(JSONSyntaxError) -> Int {
        entries.removeAll(keepingCapacity: true)
        unescaped.removeAll(keepingCapacity: true)
        self.rootPath = rootPath
        // The arrays move into the scanner and back, so appends are not checked for exclusive access
        // to a class property one by one.
        var scanner = JSONScanner(entries: entries, unescaped: unescaped, maxDepth: maxDepth)
        scanner.deferring = deferring.map { Array($0.utf8) }
        scanner.allowance = allowance
        entries = []
        unescaped = []
        defer {
            entries = scanner.entries
            unescaped = scanner.unescaped
            splits = scanner.splits
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> Int in
            scanner.bytes = buffer
            scanner.index = JSONScanner.skipWhitespace(buffer, from: from)
            try scanner.parseValue(depth: depth)
            parsedBytes = scanner.index - from
            parsedEnd = scanner.index
            return scanner.index
        }
    }

    /// Parses each element of deferred entry `i` into `element` (its tape replaced each time) and calls
    /// `body`; syntax errors are those a whole parse would report, at the same line and column. A piece
    /// of the array starts `from` a split point (`splits`: an element's index and the byte just past
    /// the comma before it) and stops `until` the next: the comma after its last element must end
    /// there, or it throws `PieceMisaligned`.
    func forEachDeferredElement(_ i: Int, maxDepth: Int = JSONTape.defaultMaxDepth, into element: JSONTape,
                                from: (element: Int, byte: Int)? = nil, until: (element: Int, byte: Int)? = nil,
                                _ body: () throws -> Void) throws {
        let prefix = path(of: i)
        var index = from?.byte ?? entries[i].high + 1  // past the [, or the comma before the piece
        var n = from?.element ?? 0
        func next() -> UInt8? {
            bytes.withUnsafeBufferPointer { index = JSONScanner.skipWhitespace($0, from: index) }
            return index < bytes.count ? bytes[index] : nil
        }
        func unexpected(_ expected: String) -> JSONSyntaxError {
            var scanner = JSONScanner(entries: [], unescaped: [], maxDepth: maxDepth)
            return bytes.withUnsafeBufferPointer {
                scanner.bytes = $0
                scanner.index = index
                return JSONScanner.error($0, "unexpected \(scanner.describeCurrent()), expected \(expected)", at: index)
            }
        }
        if from == nil, next() == UInt8(ascii: "]") { return }
        while true {
            // Depth 2: inside the root object and the array, as in a whole parse.
            index = try element.parse(from: index, depth: 2, maxDepth: maxDepth, rootPath: prefix + "[\(n)]")
            try body()
            n += 1
            if let until, n == until.element {
                let comma = skipWhitespace(from: index)
                guard comma < bytes.count, bytes[comma] == UInt8(ascii: ","), comma + 1 == until.byte else { throw PieceMisaligned() }
                return
            }
            switch next() {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?: return
            case nil: throw JSONScanner.error(bytes, "unexpected end of input inside an array", at: index)
            default: throw unexpected("',' or ']'")
            }
        }
    }

    /// A piece of a deferred array did not end where the next begins (a split point the scan of the
    /// whole array placed inside an element): the caller parses the array in one piece instead.
    struct PieceMisaligned: Error {}

    private func skipWhitespace(from index: Int) -> Int {
        bytes.withUnsafeBufferPointer { JSONScanner.skipWhitespace($0, from: index) }
    }

    // MARK: Reading

    func kind(_ i: Int) -> Kind { entries[i].kind }

    /// The index just past entry `i` and everything it contains.
    func end(_ i: Int) -> Int {
        entries[i].end(at: i)
    }

    func count(_ i: Int) -> Int { entries[i].low }

    func bool(_ i: Int) -> Bool { entries[i].flag }

    func int(_ i: Int) -> Int64 { Int64(bitPattern: entries[i].payload) }

    func double(_ i: Int) -> Double { Double(bitPattern: entries[i].payload) }

    /// The UTF-8 text of string entry `i` (validated when parsed).
    func withText<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { entries[i].withText(document: $0, unescaped: unescaped, body) }
    }

    func string(_ i: Int) -> String { withText(i) { String(decoding: $0, as: UTF8.self) } }

    func textCount(_ i: Int) -> Int { entries[i].low }

    /// Whether string entry `i` reads exactly `text`.
    func text(_ i: Int, equals text: String) -> Bool {
        guard entries[i].low == text.utf8.count else { return false }  // most keys differ in length
        var text = text
        return text.withUTF8 { want in
            withText(i) { have in
                guard have.count == want.count else { return false }
                for j in 0..<have.count where have[j] != want[j] { return false }
                return true
            }
        }
    }

    /// String entry `i`'s text packed little-endian in a word (`word(of:)`) when it is at most 8 bytes
    /// and holds no NUL, else nil: a short key compares with a constant in one step. Without NULs two
    /// texts pack alike only when they are equal ("op" and "op\u0000" would otherwise).
    func word(_ i: Int) -> UInt64? {
        guard entries[i].low <= 8 else { return nil }
        return withText(i) { Self.pack($0) }
    }

    /// `text`'s UTF-8 packed as `word` packs a string entry's.
    static func word(of text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { pack($0) }
    }

    @inline(__always)
    private static func pack(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard text.count <= 8 else { return nil }
        var w: UInt64 = 0
        for j in 0..<text.count {
            if text[j] == 0 { return nil }
            w |= UInt64(text[j]) << (8 * UInt64(j))
        }
        return w
    }

    /// The value of member `key` of object entry `i`, or nil.
    func member(_ i: Int, _ key: String) -> Int? {
        var k = i + 1
        let stop = entries[i].high
        while k < stop {
            if text(k, equals: key) { return k + 1 }
            k = end(k + 1)
        }
        return nil
    }

    /// The key and value indices of object entry `i`'s members, in order.
    func members(_ i: Int) -> [(key: Int, value: Int)] {
        var out: [(key: Int, value: Int)] = []
        var k = i + 1
        while k < entries[i].high {
            out.append((k, k + 1))
            k = end(k + 1)
        }
        return out
    }

    /// The indices of array entry `i`'s elements, in order.
    func elements(_ i: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(count(i))
        var k = i + 1
        while k < entries[i].high {
            out.append(k)
            k = end(k)
        }
        return out
    }

    /// Entry `i` as a tree (for the few places that want one: error messages, small values).
    func value(_ i: Int) -> JSONValue {
        switch kind(i) {
        case .null: return .null
        case .bool: return .bool(bool(i))
        case .int: return .int(int(i))
        case .double: return .double(double(i))
        case .string: return .string(string(i))
        case .array: return .array(elements(i).map { value($0) })
        case .object: return .object(members(i).map { (key: string($0.key), value: value($0.value)) })
        case .deferred: return .array([])  // only its own decoder reads it
        }
    }

    /// The JSON path of entry `target`, found by descending from the root (only an error needs one, so
    /// no entry stores its path).
    func path(of target: Int) -> String {
        var path = rootPath
        var i = 0
        while i != target {
            var k = i + 1
            if kind(i) == .object {
                while end(k + 1) <= target { k = end(k + 1) }
                let key = string(k)
                path = path.isEmpty ? key : path + "." + key
                i = k + 1
            } else {
                var n = 0
                while end(k) <= target { (k, n) = (end(k), n + 1) }
                path += "[\(n)]"
                i = k
            }
        }
        return path
    }
}
