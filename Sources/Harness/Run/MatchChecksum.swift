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

    @inline(__always)
    package mutating func add(event: Int, trigger: Int32) {
        // splitmix64 finaliser of the pair; summing keeps the digest independent of match order.
        var z = UInt64(truncatingIfNeeded: event) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: trigger))
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        value = value &+ (z ^ (z >> 31))
        matches += 1
    }

    /// Adds every match of `event` left in `scratch` by the last `match` call.
    @inline(__always)
    package mutating func add(matchesOf event: Int, in scratch: MatchScratch) {
        for k in 0..<scratch.count { add(event: event, trigger: scratch.result(k)) }
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
