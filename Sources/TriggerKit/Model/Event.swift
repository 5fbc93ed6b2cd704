/// One app event (docs/semantics.md, "Events"), decoded and validated; properties are flattened to dot paths.
public struct Event: Sendable, Equatable {
    /// What happened; the associated values are what conditions match on.
    public enum Kind: Sendable, Equatable {
        case customEvent(name: String)
        case purchase(productID: String)
        case sessionStart
        /// The app was opened from a push; `actionID` is the tapped button, nil for a plain tap.
        case pushClick(campaignID: String?, actionID: String?)
    }

    public var time: Double
    public var kind: Kind
    public var properties: [String: PropertyValue]

    public init(time: Double, kind: Kind, properties: [String: PropertyValue] = [:]) {
        self.time = time
        self.kind = kind
        self.properties = properties
    }

    /// The input name of the event kind (`custom_event`, `purchase`, …).
    public var kindName: String {
        switch kind {
        case .customEvent: return "custom_event"
        case .purchase: return "purchase"
        case .sessionStart: return "session_start"
        case .pushClick: return "push_click"
        }
    }
}
