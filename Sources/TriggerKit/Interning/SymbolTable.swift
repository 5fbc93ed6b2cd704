/// Interns strings (event names, product and campaign ids, property keys, string values) to dense
/// `Int32` ids. A corpus's strings are interned first, so an event string equal to a corpus constant
/// gets the constant's id, and strings seen only in events get ids at or above `corpusCount`.
public struct SymbolTable: Sendable {
    public private(set) var strings: [String] = []
    /// Every string's UTF-8 bytes back to back: id `i`'s are `text[textStart[i]..<textStart[i + 1]]`.
    /// The hot path reads a string's bytes here without retaining its `String`.
    package private(set) var text: [UInt8] = []
    package private(set) var textStart: [Int] = [0]
    /// Every interned string by id, under Swift's `String` equality (canonical equivalence).
    private var ids: [String: Int32] = [:]
    /// Open addressing over the bytes of ASCII strings whose id's string is byte-identical to them
    /// (id + 1 per slot, 0 empty; power-of-two size). Building a matcher looks up every name, key
    /// and constant of the set; hashing with `Hasher` took a quarter of a 200-trigger build.
    private var asciiSlots: [Int32] = []
    private var asciiCount = 0
    /// Whether a non-ASCII string was interned: only then can an ASCII string missing from
    /// `asciiSlots` still equal an interned one (U+212A KELVIN SIGN == "K").
    private var hasNonASCII = false

    public init() {}

    public var count: Int { strings.count }

    /// The id of `s`, adding it when new (load time only, never on the hot path).
    @discardableResult
    package mutating func intern(_ s: String) -> Int32 {
        let key = Self.asciiHash(s)
        if let key, let id = fastLookup(s, hash: key) { return id }
        if let id = ids[s] {
            // Only a byte-identical entry: re-filing on growth hashes the id's own string, which must be ASCII.
            if let key, strings[Int(id)].utf8.elementsEqual(s.utf8) { fastInsert(id, hash: key) }
            return id
        }
        let id = Int32(strings.count)
        // The id's text is NFC whichever spelling came first, so a regex sees the same bytes for it
        // whatever else the set or the log holds (CanonicalText).
        strings.append(key == nil ? CanonicalText.nfc(s) : s)
        text.append(contentsOf: strings[Int(id)].utf8)
        textStart.append(text.count)
        ids[s] = id
        if let key { fastInsert(id, hash: key) } else { hasNonASCII = true }
        return id
    }

    /// The id of `s` if it was interned; never grows the table.
    public func lookup(_ s: String) -> Int32? {
        guard let key = Self.asciiHash(s) else { return ids[s] }
        if let id = fastLookup(s, hash: key) { return id }
        return hasNonASCII ? ids[s] : nil
    }

    public subscript(id: Int32) -> String { strings[Int(id)] }

    /// FNV-1a of `s`'s bytes, or nil when `s` is not ASCII.
    static func asciiHash(_ s: String) -> UInt64? {
        var s = s
        return s.withUTF8 { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            var high: UInt8 = 0
            for b in bytes {
                high |= b
                h = (h ^ UInt64(b)) &* 0x100_0000_01b3
            }
            return high < 0x80 ? h ^ (h >> 29) : nil
        }
    }

    private func fastLookup(_ s: String, hash: UInt64) -> Int32? {
        guard !asciiSlots.isEmpty else { return nil }
        let mask = asciiSlots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = asciiSlots[slot]
            if entry == 0 { return nil }
            if strings[Int(entry - 1)] == s { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    private mutating func fastInsert(_ id: Int32, hash: UInt64) {
        if (asciiCount + 1) * 2 > asciiSlots.count {
            // Grow to keep the load at most one half, re-filing every entry by its string's hash.
            let old = asciiSlots
            asciiSlots = Array(repeating: 0, count: max(16, old.count * 2))
            asciiCount = 0
            for entry in old where entry != 0 { place(entry, hash: Self.asciiHash(strings[Int(entry - 1)])!) }
        }
        place(id + 1, hash: hash)
    }

    private mutating func place(_ entry: Int32, hash: UInt64) {
        let mask = asciiSlots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while asciiSlots[slot] != 0 { slot = (slot + 1) & mask }
        asciiSlots[slot] = entry
        asciiCount += 1
    }
}

/// The symbols of one trigger set: every string a matcher compares with, interned once.
public struct Vocabulary: Sendable {
    public let symbols: SymbolTable
    /// Ids below this come from the corpus; event-only strings are interned above it.
    public var corpusCount: Int32 { Int32(symbols.count) }

    /// A vocabulary over an existing table: a delta writer's, which holds the events' strings and
    /// grows only by appending, so every id the events carry keeps its meaning.
    package init(symbols: SymbolTable) { self.symbols = symbols }

    public init(_ set: TriggerSet) {
        var table = SymbolTable()
        // Filter property keys first, so they hold the smallest ids: the compiled matchers' 64-bit
        // property-presence filter (`PredicateProgram.keyBit`) is then exact for up to 64 keys.
        for trigger in set.triggers {
            for condition in trigger.conditions {
                for clause in condition.filters.clauses {
                    for filter in clause { table.intern(filter.property) }
                }
            }
        }
        for trigger in set.triggers {
            for condition in trigger.conditions {
                switch condition {
                case .customEvent(let name, _): table.intern(name)
                case .purchase(let product, _): if let product { table.intern(product) }
                case .sessionStart: break
                case .pushClick(let campaign, let action):
                    if let campaign { table.intern(campaign) }
                    if let action { table.intern(action) }
                }
                for clause in condition.filters.clauses {
                    for filter in clause {
                        switch filter.operand {
                        case .string(let s): table.intern(s)
                        case .strings(let list): for s in list { table.intern(s) }
                        default: break
                        }
                    }
                }
            }
        }
        symbols = table
    }
}

extension SymbolTable {
    /// `lookup` for one pass over a trigger set (a matcher build), through a small direct-mapped cache
    /// keyed by each string's 16 bytes of representation. A set repeats its strings (a handful of
    /// property keys across thousands of filters), and a table lookup — hash, probe, compare with the
    /// interned string — misses the cache often enough to take a third of a build without this cache
    /// (docs/design.md). A hit needs identical representations, which only equal strings have while
    /// the set lives (inline bytes of a small string, or the same storage object of a large one); an
    /// equal string with another representation only misses the cache.
    package struct Resolver: ~Copyable {
        package let table: SymbolTable
        private let raw: UnsafeMutablePointer<(UInt64, UInt64)>
        private let ids: UnsafeMutablePointer<Int32>
        private static let slots = 512

        package init(_ table: SymbolTable) {
            self.table = table
            // One block: the representations, then the ids (-1 empty).
            let block = UnsafeMutableRawPointer.allocate(byteCount: Self.slots * 20, alignment: 16)
            raw = block.bindMemory(to: (UInt64, UInt64).self, capacity: Self.slots)
            raw.initialize(repeating: (0, 0), count: Self.slots)
            ids = (block + Self.slots * 16).bindMemory(to: Int32.self, capacity: Self.slots)
            ids.initialize(repeating: -1, count: Self.slots)
        }

        deinit { UnsafeMutableRawPointer(raw).deallocate() }

        /// The id of `s` if it was interned (as `SymbolTable.lookup`).
        public func lookup(_ s: String) -> Int32? {
            let bits = unsafeBitCast(s, to: (UInt64, UInt64).self)
            let h = (bits.0 &* 0x9E37_79B9_7F4A_7C15 ^ bits.1) &* 0xBF58_476D_1CE4_E5B9
            let slot = Int(truncatingIfNeeded: h >> 55)  // 9 bits: 512 slots
            if ids[slot] >= 0, raw[slot] == bits { return ids[slot] }
            guard let id = table.lookup(s) else { return nil }
            raw[slot] = bits
            ids[slot] = id
            return id
        }
    }
}
