/// A typed event property value (docs/semantics.md, "Events"): numbers keep Int64 vs. Double, yet 3 == 3.0.
public enum PropertyValue: Sendable, Hashable, CustomStringConvertible {
    case int(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    /// Seconds since the Unix epoch.
    case date(Double)
    case null

    /// The filter type this value satisfies, or nil for `null`.
    public var type: PropertyType? {
        switch self {
        case .int, .double: return .number
        case .string: return .string
        case .bool: return .boolean
        case .date: return .date
        case .null: return nil
        }
    }

    public var description: String {
        switch self {
        case .int(let i): return String(i)
        case .double(let d): return JSONValue.format(d)
        case .string(let s):
            var out = ""
            JSONValue.quote(s, into: &out)
            return out
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return "date(\(JSONValue.format(d)))"
        case .null: return "null"
        }
    }

    public static func == (lhs: PropertyValue, rhs: PropertyValue) -> Bool {
        switch (lhs, rhs) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return NumberComparison.compare(lhs, rhs) == 0
        case let (.string(a), .string(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .int(let i): hasher.combine(0); hasher.combine(Double(i))
        case .double(let d): hasher.combine(0); hasher.combine(d)
        case .string(let s): hasher.combine(1); hasher.combine(s)
        case .bool(let b): hasher.combine(2); hasher.combine(b)
        case .date(let d): hasher.combine(3); hasher.combine(d)
        case .null: hasher.combine(4)
        }
    }
}

/// The four filter types (docs/semantics.md, "Triggers").
public enum PropertyType: String, Sendable, CaseIterable {
    case number, string, boolean, date
}

/// Exact ordering of Int64 and Double values without the rounding of a naive conversion.
public enum NumberComparison {
    /// -1, 0 or 1 as `a` is less than, equal to or greater than `b`; nil when either is not a number.
    @inlinable
    public static func compare(_ a: PropertyValue, _ b: PropertyValue) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.double(x), .double(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.int(x), .double(y)): return compare(int: x, double: y)
        case let (.double(x), .int(y)): return -compare(int: y, double: x)
        default: return nil
        }
    }

    /// Compares an Int64 with a Double exactly (a NaN compares above every number).
    @inlinable
    public static func compare(int i: Int64, double d: Double) -> Int {
        // A NaN (an embedder's; JSON has none) is above every number, as in double comparisons here;
        // converting it to Int64 below would trap.
        if d.isNaN || d >= 9_223_372_036_854_775_808.0 { return -1 }
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = d.rounded(.towardZero)
        let w = Int64(whole)
        if i != w { return i < w ? -1 : 1 }
        let frac = d - whole
        return frac > 0 ? -1 : (frac < 0 ? 1 : 0)
    }
}
