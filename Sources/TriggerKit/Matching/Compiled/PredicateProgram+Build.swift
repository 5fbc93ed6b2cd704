extension PredicateProgram {
    /// The memo slot of each distinct regex object of a build. Keyed by identity: the decoder shares one
    /// `CompiledRegex` per distinct pattern, so that is one slot per pattern, found without hashing the
    /// pattern's text for every regex filter of every rebuild. Open addressing on the object's address
    /// (cheaper than a dictionary here); 0 marks an empty cell.
    package struct RegexSlots {
        private var keys = [UInt](repeating: 0, count: 64)
        private var slots = [Int32](repeating: 0, count: 64)
        private var used = 0

        package init() {}

        /// The slot of `re`, or `next` (recorded as its slot) when `re` is new.
        package mutating func slot(of re: CompiledRegex, next: Int32) -> Int32 {
            let key = UInt(bitPattern: ObjectIdentifier(re))
            let i = cell(of: key)
            if keys[i] == key { return slots[i] }
            keys[i] = key
            slots[i] = next
            used += 1
            if used * 2 > keys.count { grow() }
            return next
        }

        /// The cell holding `key`, or the empty cell where it belongs: linear probing from its Fibonacci
        /// hash (the address's low bits are alignment zeros).
        private func cell(of key: UInt) -> Int {
            var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(64 - keys.count.trailingZeroBitCount))
            while keys[i] != 0 && keys[i] != key { i = (i + 1) & (keys.count - 1) }
            return i
        }

        private mutating func grow() {
            let oldKeys = keys, oldSlots = slots
            keys = [UInt](repeating: 0, count: oldKeys.count * 2)
            slots = [Int32](repeating: 0, count: oldKeys.count * 2)
            for j in oldKeys.indices where oldKeys[j] != 0 {
                let i = cell(of: oldKeys[j])
                keys[i] = oldKeys[j]
                slots[i] = oldSlots[j]
            }
        }
    }

    /// Sorts `pool[from...]` and drops its repeats in place; returns how many distinct ids remain there.
    package static func sortUniqueTail(_ pool: inout FrozenBuffer<Int32>.Builder, from first: Int) -> Int {
        let kept = pool.withTail(from: first) { tail -> Int in
            tail.sort()
            var kept = 0
            for i in tail.indices where kept == 0 || tail[i] != tail[kept - 1] {
                tail[kept] = tail[i]
                kept += 1
            }
            return kept
        }
        pool.truncate(to: first + kept)
        return kept
    }

    // Switches, not dictionary literals: a literal built per predicate made every rebuild of the set
    // (a publication) allocate and hash once per filter.
    static func tagMask(_ type: PropertyType) -> UInt8 {
        switch type {
        case .number: 1 << ValueTag.int.rawValue | 1 << ValueTag.double.rawValue
        case .string: 1 << ValueTag.string.rawValue
        case .boolean: 1 << ValueTag.bool.rawValue
        case .date: 1 << ValueTag.date.rawValue
        }
    }

    static func numberCode(_ op: FilterOperator) -> Code {
        switch op {
        case .eq: .numEq
        case .ne: .numNe
        case .gt: .numGt
        case .gte: .numGte
        case .lt: .numLt
        case .lte: .numLte
        default: preconditionFailure("\(op) is not a number comparison")
        }
    }

    static func dateCode(_ op: FilterOperator) -> Code {
        switch op {
        case .before: .dateBefore
        case .after: .dateAfter
        case .lessThanSecondsAgo: .dateLessThanAgo
        case .moreThanSecondsAgo: .dateMoreThanAgo
        case .inLessThanSeconds: .dateInLessThan
        case .inMoreThanSeconds: .dateInMoreThan
        default: preconditionFailure("\(op) is not a date operator")
        }
    }

    static func numberBits(_ v: PropertyValue) -> (UInt8, UInt64) {
        switch v {
        case .int(let i): return (ValueTag.int.rawValue, UInt64(bitPattern: i))
        case .double(let d): return (ValueTag.double.rawValue, d.bitPattern)
        default: preconditionFailure("not a number: \(v)")
        }
    }
}
