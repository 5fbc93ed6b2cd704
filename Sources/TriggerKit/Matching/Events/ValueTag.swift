/// Compact property value tags of `EventColumns`.
@usableFromInline package enum ValueTag: UInt8, Sendable {
    case int = 0, double, string, bool, date, null

    /// The filter type a value of this tag satisfies.
    @inlinable
    package func satisfies(_ type: PropertyType) -> Bool {
        switch type {
        case .number: return self == .int || self == .double
        case .string: return self == .string
        case .boolean: return self == .bool
        case .date: return self == .date
        }
    }
}

/// Event kinds as stored in `EventColumns.kinds`.
@usableFromInline package enum EventKindCode: UInt8, Sendable {
    case customEvent = 0, purchase, sessionStart, pushClick
}
