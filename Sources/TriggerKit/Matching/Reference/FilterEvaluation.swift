/// The meaning of one filter on one event (docs/semantics.md, "Triggers"), interpreted directly from the decoded tree.
/// This is the oracle's definition; faster strategies must agree with it.
package enum FilterEvaluation {
    /// The property value a filter sees: nil when the property is missing (absent, null or of another type).
    @inlinable
    package static func typedValue(_ filter: Filter, in properties: [String: PropertyValue]) -> PropertyValue? {
        guard let v = properties[filter.property], v.type == filter.type else { return nil }
        return v
    }

    /// Whether `filter` holds for an event at `eventTime` with `properties`.
    package static func holds(_ filter: Filter, properties: [String: PropertyValue], eventTime: Double) -> Bool {
        guard let value = typedValue(filter, in: properties) else { return filter.op.holdsOnMissing }
        return holds(filter, present: value, eventTime: eventTime)
    }

    /// Whether `filter` holds for a present value of the filter's type.
    package static func holds(_ filter: Filter, present value: PropertyValue, eventTime: Double) -> Bool {
        switch filter.op {
        case .exists: return true
        case .notExists: return false
        default: break
        }
        switch (value, filter.operand) {
        case (_, .number(let c)):
            guard let order = NumberComparison.compare(value, c) else { return false }
            switch filter.op {
            case .eq: return order == 0
            case .ne: return order != 0
            case .gt: return order > 0
            case .gte: return order >= 0
            case .lt: return order < 0
            case .lte: return order <= 0
            default: return false
            }
        case (_, .numbers(let list)):
            let found = list.contains { NumberComparison.compare(value, $0) == 0 }
            return filter.op == .in ? found : !found
        case (.string(let s), .string(let c)):
            return filter.op == .eq ? s == c : s != c
        case (.string(let s), .strings(let list)):
            let found = list.contains(s)
            return filter.op == .in ? found : !found
        case (.string(let s), .regex(let re)):
            // The decoded text as written: searched in NFC, the spelling interned strings have (CanonicalText).
            let found = re.search(CanonicalText.nfc(s))
            return filter.op == .regex ? found : !found
        case (.bool(let b), .bool(let c)):
            return filter.op == .eq ? b == c : b != c
        case (.date(let d), .seconds(let c)):
            return dateHolds(filter.op, date: d, constant: c, eventTime: eventTime)
        default:
            return false
        }
    }

    /// Date operators: absolute `before`/`after` against epoch seconds; relative ones measure the
    /// distance between the property and the event's time. "Ago" operators need a date at or before
    /// the event time, "in" operators one at or after it.
    @inlinable
    package static func dateHolds(_ op: FilterOperator, date d: Double, constant c: Double, eventTime t: Double) -> Bool {
        switch op {
        case .before: return d < c
        case .after: return d > c
        case .lessThanSecondsAgo: return d <= t && t - d < c
        case .moreThanSecondsAgo: return d <= t && t - d > c
        case .inLessThanSeconds: return d >= t && d - t < c
        case .inMoreThanSeconds: return d >= t && d - t > c
        default: return false
        }
    }

    /// Whether every clause has a filter that holds.
    package static func holds(_ cnf: FilterCNF, properties: [String: PropertyValue], eventTime: Double) -> Bool {
        cnf.everyClauseHolds { filter, _ in holds(filter, properties: properties, eventTime: eventTime) }
    }
}

extension Condition {
    /// Whether this condition's event kind and key (name, product, campaign, action) fit `event`,
    /// before filters are looked at.
    package func appliesTo(_ kind: Event.Kind) -> Bool {
        switch (self, kind) {
        case let (.customEvent(name, _), .customEvent(eventName)):
            return name == eventName
        case let (.purchase(product, _), .purchase(eventProduct)):
            return product == nil || product == eventProduct
        case (.sessionStart, .sessionStart):
            return true
        case let (.pushClick(campaign, action), .pushClick(eventCampaign, eventAction)):
            if let campaign, campaign != eventCampaign { return false }
            if let action, action != eventAction { return false }
            return true
        default:
            return false
        }
    }

    /// Whether the condition matches `event`: it applies and its filters hold.
    package func matches(_ event: Event) -> Bool {
        appliesTo(event.kind) && FilterEvaluation.holds(filters, properties: event.properties, eventTime: event.time)
    }
}
