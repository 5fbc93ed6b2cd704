import CTriggerBenchPlugin

// The header's enums as typed constants: compared without casts, and free to convert (one byte each).
// Computed, not stored: a stored static in another module is reached through a lazy-initialising
// accessor call on every use, which the matching loop would pay per filter.

/// What an event is (`Events.kind(_:)`, `Condition.kind`).
public struct EventKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable public static var custom: EventKind { EventKind(rawValue: UInt8(TB_EVENT_CUSTOM)) }
    @inlinable public static var purchase: EventKind { EventKind(rawValue: UInt8(TB_EVENT_PURCHASE)) }
    @inlinable public static var sessionStart: EventKind { EventKind(rawValue: UInt8(TB_EVENT_SESSION_START)) }
    @inlinable public static var pushClick: EventKind { EventKind(rawValue: UInt8(TB_EVENT_PUSH_CLICK)) }
}

/// The type a filter tests (docs/semantics.md, "Matching": which properties a filter sees).
public struct PropertyType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable public static var number: PropertyType { PropertyType(rawValue: UInt8(TB_TYPE_NUMBER)) }
    @inlinable public static var string: PropertyType { PropertyType(rawValue: UInt8(TB_TYPE_STRING)) }
    @inlinable public static var boolean: PropertyType { PropertyType(rawValue: UInt8(TB_TYPE_BOOLEAN)) }
    @inlinable public static var date: PropertyType { PropertyType(rawValue: UInt8(TB_TYPE_DATE)) }
}

/// A filter's operator.
public struct FilterOperator: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable public static var eq: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_EQ)) }
    @inlinable public static var ne: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_NE)) }
    @inlinable public static var gt: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_GT)) }
    @inlinable public static var gte: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_GTE)) }
    @inlinable public static var lt: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_LT)) }
    @inlinable public static var lte: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_LTE)) }
    @inlinable public static var `in`: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_IN)) }
    @inlinable public static var notIn: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_NOT_IN)) }
    @inlinable public static var exists: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_EXISTS)) }
    @inlinable public static var notExists: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_NOT_EXISTS)) }
    @inlinable public static var regex: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_REGEX)) }
    @inlinable public static var notRegex: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_NOT_REGEX)) }
    @inlinable public static var before: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_BEFORE)) }
    @inlinable public static var after: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_AFTER)) }
    @inlinable public static var lessThanSecondsAgo: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_LESS_THAN_SECONDS_AGO)) }
    @inlinable public static var moreThanSecondsAgo: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_MORE_THAN_SECONDS_AGO)) }
    @inlinable public static var inLessThanSeconds: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_IN_LESS_THAN_SECONDS)) }
    @inlinable public static var inMoreThanSeconds: FilterOperator { FilterOperator(rawValue: UInt8(TB_OP_IN_MORE_THAN_SECONDS)) }

    /// The operators that hold on a missing property (absent, null or of another type).
    @inlinable public var holdsOnMissing: Bool { self == .ne || self == .notIn || self == .notRegex || self == .notExists }
}
