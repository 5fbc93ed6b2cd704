/// A number as events and constants carry it: a 64-bit integer or a double, compared exactly.
public enum Number: Sendable, Equatable {
    case int(Int64)
    case double(Double)

    /// -1, 0 or 1 as `self` is below, equal to or above `other`, by exact mathematical value: no
    /// integer is rounded to a double (2^53 + 1 > 2^53 as a double), and -0.0 equals 0.
    @inlinable
    public func compare(_ other: Number) -> Int {
        switch (self, other) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.double(let a), .double(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int(let a), .double(let b)): return Number.compare(a, b)
        case (.double(let a), .int(let b)): return -Number.compare(b, a)
        }
    }

    /// An integer against a (finite) double without converting the integer.
    @inlinable
    static func compare(_ i: Int64, _ d: Double) -> Int {
        if d >= 9223372036854775808.0 { return -1 }  // 2^63 and above: above every Int64
        if d < -9223372036854775808.0 { return 1 }
        let whole = d.rounded(.towardZero)
        let w = Int64(whole)  // exact: an integer inside the Int64 range
        if i != w { return i < w ? -1 : 1 }
        let fraction = d - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }
}
