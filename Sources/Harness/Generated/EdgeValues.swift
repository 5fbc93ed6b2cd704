import Foundation
import TriggerKit
import Workload

/// The values at the edges of docs/semantics.md's rules that generated cases draw from: where a
/// conversion loses an integer, where signs and subnormals hide, where strings are equal only up to
/// canonical equivalence or are exactly at the byte limit, where ISO-8601 stops being strict.
enum EdgeValues {
    static let p53: Int64 = 1 << 53

    static let integers: [Int64] = [
        0, 1, -1, 2, 3, 7, 8, 9, 16, 17, 255, 256, 1 << 31, -(1 << 31), p53 - 1, p53, p53 + 1, p53 + 2, -p53 - 1,
        Int64.max, Int64.max - 1, Int64.min, Int64.min + 1,
    ]

    static let doubles: [Double] = [
        0.0, -0.0, 0.5, 2.5, 3.0, -2.5, 0.1, 0.30000000000000004, 1e-9, -1e-9, -0.01, -1.5e-5, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude,
        2.2250738585072014e-308, 1e-300, 9007199254740992.0, 9007199254740994.0, 9223372036854775808.0,
        -9223372036854775808.0, 18446744073709551616.0, 1e9, 1e15, 1e19, -1e19, 1e300, -1e300,
        1.7976931348623157e308, -1.7976931348623157e308,
    ]

    /// Pairs that are canonically equivalent (NFC and NFD, singleton decompositions), and near misses.
    static let strings: [String] = [
        "", "a", "A", "ab", "x.y", "true", "1", "3.0", "café", "cafe\u{301}", "CAFÉ", "\u{3A9}", "\u{2126}", "\u{C5}",
        "\u{212B}", "A\u{30A}", "ﬁ", "fi", "Straße", "STRASSE", "\u{1F600}", " a", "a ", "2026-11-22T10:00:00",
        "2026-11-22 10:00:00Z", "2023-02-29T00:00:00Z", "2026-11-22T10:00:00z", "2026-11-22T24:00:00Z",
        String(repeating: "a", count: 255), String(repeating: "a", count: 254) + "A", String(repeating: "é", count: 127),
        String(repeating: "e\u{301}", count: 85),
    ]

    /// RE2 patterns (a case-insensitive search): anchors, empty matches, canonical forms, case.
    static let patterns: [String] = [
        "a", "^a", "a$", "^$", "x*", "caf", "^café$", "^cafe\u{301}$", "é", "e\u{301}", "\u{3A9}", "\u{2126}", "straße",
        "^.{255}$", "^a{254}", "[0-9]", "^\\d+(\\.\\d+)?$", "\\.", "T10:00", "^ ", "\u{1F600}", "ﬁ", "^(a|b)+$",
    ]

    /// Strict timestamps (zones, fractions, leap days, before 1970) and their epoch seconds.
    static let isoDates: [String] = [
        "2026-11-22T10:00:00Z", "2026-11-22T10:00:00.5Z", "2026-11-22T12:00:00+02:00", "2026-11-22T05:30:00-04:30",
        "2024-02-29T23:59:59.999Z", "2000-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.75Z",
        "1970-01-01T00:00:00.123456789Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2025-11-24T16:00:00.25Z",
    ]

    /// Event times: today's epoch with a fraction a float cannot hold, 1970, negatives, the 2^53 edge.
    static let times: [Double] = [
        1764000000.25, 1764000000, 0, -0.0, -1.5, 1e9, 4503599627370495.5, 9007199254740992, -9007199254740992, 1.5,
    ]

    /// Durations for relative-date filters.
    static let durations: [Double] = [0, 0.25, 1, 60, 86400, 1e-6, Double.leastNonzeroMagnitude, 1e15, 1e300]

    /// A number as JSON: an integer, a double, or a neighbour of either one step away.
    static func number(_ rng: inout DeterministicRandom) -> JSONValue {
        if rng.chance(0.45) {
            let i = integers[rng.below(integers.count)]
            switch rng.below(6) {
            case 0 where i < Int64.max: return .int(i + 1)
            case 1 where i > Int64.min: return .int(i - 1)
            case 2: return .double(Double(i))
            default: return .int(i)
            }
        }
        let d = doubles[rng.below(doubles.count)]
        switch rng.below(6) {
        case 0 where d.nextUp.isFinite: return .double(d.nextUp)
        case 1 where d.nextDown.isFinite: return .double(d.nextDown)
        case 2 where d == d.rounded() && d.magnitude < 9.2e18: return .int(Int64(d))
        default: return .double(d)
        }
    }

    /// A number near `value`: itself, either neighbour, the other representation, or a fresh one.
    static func number(near value: JSONValue, _ rng: inout DeterministicRandom) -> JSONValue {
        switch (value, rng.below(6)) {
        case (.int(let i), 0) where i < Int64.max: return .int(i + 1)
        case (.int(let i), 1) where i > Int64.min: return .int(i - 1)
        case (.int(let i), 2): return .double(Double(i))
        case (.double(let d), 0) where d.nextUp.isFinite: return .double(d.nextUp)
        case (.double(let d), 1) where d.nextDown.isFinite: return .double(d.nextDown)
        case (.double(let d), 2) where d == d.rounded() && d.magnitude < 9.2e18: return .int(Int64(d))
        case (_, 5): return number(&rng)
        default: return value
        }
    }

    static func string(_ rng: inout DeterministicRandom) -> String { strings[rng.below(strings.count)] }

    /// A string near `value`: itself, its other normal form, another case, or a fresh one.
    static func string(near value: String, _ rng: inout DeterministicRandom) -> String {
        switch rng.below(6) {
        case 0: return value.decomposedStringWithCanonicalMapping
        case 1: return value.precomposedStringWithCanonicalMapping
        case 2 where value.uppercased().utf8.count <= 255: return value.uppercased()
        case 3: return string(&rng)
        default: return value
        }
    }

    /// A date constant: epoch seconds (near `time`) or a strict ISO-8601 string.
    static func date(near time: Double, _ rng: inout DeterministicRandom) -> JSONValue {
        if rng.chance(0.3) { return .string(isoDates[rng.below(isoDates.count)]) }
        let k = durations[rng.below(durations.count)]
        var d = rng.chance(0.5) ? time - k : time + k
        if rng.chance(0.3) { d = rng.chance(0.5) ? d.nextUp : d.nextDown }
        return d.magnitude < 9007199254740992 ? .double(d) : .int(Int64(time.rounded(.towardZero)))
    }
}
