/// A read-only hash table from (property key, value kind, value bits) to a plain value, in manually
/// allocated memory with open addressing: a lookup is a multiply, a shift and a compare or two. The
/// indexes probe one per event property; a Swift `Dictionary` hashed each key with SipHash and was
/// reference counted per lookup.
package struct FlatTable<Value: Sendable & BitwiseCopyable>: Sendable {
    struct Slot: Sendable, BitwiseCopyable {
        var bits: UInt64
        var key: Int32
        /// `FlatTable.empty` marks a free slot.
        var kind: UInt8
        var value: Value
    }

    static var empty: UInt8 { 0xFF }

    let slots: FrozenBuffer<Slot>
    /// Capacity − 1 (a power of two); the shift takes the hash's top bits.
    let mask: Int
    let shift: UInt64
    package let count: Int

    /// `entries` must not repeat a key; `kind` must not be `empty`. `filler` fills the free slots.
    init(_ entries: [(key: Int32, kind: UInt8, bits: UInt64, value: Value)], filler: Value) {
        var capacity = 2
        while capacity < 2 * entries.count { capacity *= 2 }  // load factor at most one half
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = entries.count
        var slots = [Slot](repeating: Slot(bits: 0, key: 0, kind: Self.empty, value: filler), count: capacity)
        for e in entries {
            precondition(e.kind != Self.empty, "kind 0xFF marks a free slot")
            var i = Self.hash(e.key, e.kind, e.bits, shift: shift)
            while slots[i].kind != Self.empty {
                precondition(slots[i].key != e.key || slots[i].kind != e.kind || slots[i].bits != e.bits, "a key given twice")
                i = (i + 1) & mask
            }
            slots[i] = Slot(bits: e.bits, key: e.key, kind: e.kind, value: e.value)
        }
        self.slots = FrozenBuffer(slots)
    }

    @inline(__always)
    static func hash(_ key: Int32, _ kind: UInt8, _ bits: UInt64, shift: UInt64) -> Int {
        var h = bits ^ UInt64(UInt32(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(kind) &<< 56
        h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// The probe's view: the slots' address and the hash parameters (copying it retains nothing).
    struct View: @unchecked Sendable, BitwiseCopyable {
        let slots: UnsafePointer<Slot>
        let mask: Int
        let shift: UInt64

        @inline(__always)
        func value(key: Int32, kind: UInt8, bits: UInt64) -> Value? {
            var i = FlatTable.hash(key, kind, bits, shift: shift)
            while true {
                let s = slots[i]
                if s.kind == FlatTable.empty { return nil }
                if s.bits == bits, s.key == key, s.kind == kind { return s.value }
                i = (i &+ 1) & mask
            }
        }

        @inline(__always)
        subscript(_ k: CrowdIndex.EqualityKey) -> Value? { value(key: k.key, kind: k.kind, bits: k.bits) }
    }

    var view: View { View(slots: slots.base, mask: mask, shift: shift) }

    @inline(__always)
    func value(key: Int32, kind: UInt8, bits: UInt64) -> Value? { view.value(key: key, kind: kind, bits: bits) }
}

extension FlatTable {
    /// A table keyed by `CrowdIndex.EqualityKey`.
    package init(_ entries: [(CrowdIndex.EqualityKey, Value)], filler: Value) {
        self.init(entries.map { (key: $0.0.key, kind: $0.0.kind, bits: $0.0.bits, value: $0.1) }, filler: filler)
    }

    @inline(__always)
    package subscript(_ k: CrowdIndex.EqualityKey) -> Value? { value(key: k.key, kind: k.kind, bits: k.bits) }
}

extension FlatTable where Value == Int32 {
    /// Each of `keys` (property keys, distinct) mapped to its position in the list.
    init(positionsOf keys: [Int32]) {
        self.init(keys.indices.map { (key: keys[$0], kind: 0, bits: 0, value: Int32($0)) }, filler: -1)
    }

    /// The position of property `key` in the list the table was built from.
    @inline(__always)
    func position(of key: Int32) -> Int32? { view.position(of: key) }
}

extension FlatTable.View where Value == Int32 {
    /// The position of property `key` in the list the table was built from.
    @inline(__always)
    func position(of key: Int32) -> Int32? { value(key: key, kind: 0, bits: 0) }
}
