import TriggerKit

/// Order-independent digest of (event index, trigger index) matches: equal across strategies.
package struct MatchChecksum: Sendable, Hashable {
    package var value: UInt64 = 0
    package var matches = 0

    package init() {}

    /// A digest read back (a results file holds the value as hex and the match count beside it).
    package init(value: UInt64, matches: Int) {
        self.value = value
        self.matches = matches
    }

    /// The event's half of every pair's hash: the splitmix64 finaliser of its index, computed once per event.
    @inline(__always)
    static func eventKey(_ event: Int) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: event) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One pair's hash from its event's key: a multiply and a shift-xor per match. Summing keeps the digest
    /// independent of match order; the event's mixed key makes a trigger's hash differ from event to event.
    @inline(__always)
    static func pairHash(_ key: UInt64, _ trigger: Int32) -> UInt64 {
        let z = (key ^ UInt64(UInt32(bitPattern: trigger))) &* 0xD6E8_FEB8_6659_FD93
        return z ^ (z >> 32)
    }

    @inline(__always)
    package mutating func add(event: Int, trigger: Int32) {
        value = value &+ Self.pairHash(Self.eventKey(event), trigger)
        matches += 1
    }

    /// Adds every match of `event` left in `scratch` by the last `match` call: the event is mixed once,
    /// each match costs one multiply (the per-match cost is what a match-heavy workload measures).
    @inline(__always)
    package mutating func add(matchesOf event: Int, in scratch: MatchScratch) {
        let n = scratch.count
        guard n > 0 else { return }
        let key = Self.eventKey(event)
        var sum: UInt64 = 0
        for k in 0..<n { sum = sum &+ Self.pairHash(key, scratch.result(k)) }
        value = value &+ sum
        matches += n
    }

    /// Folds in another digest (e.g. another thread's slice of the same run).
    package mutating func merge(_ other: MatchChecksum) {
        value = value &+ other.value
        matches += other.matches
    }

    package var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
