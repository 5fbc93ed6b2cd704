import TriggerKit

/// A control line of an event log: app state, orientation or dismissal (docs/semantics.md, "Replay").
/// Part of the log format: the log reader skips these lines, replay applies them.
enum ControlLine {
    case appState(Double, AppState)
    case orientation(Double, DeviceOrientation)
    case dismiss(Double)

    var time: Double {
        switch self {
        case .appState(let t, _), .orientation(let t, _), .dismiss(let t): t
        }
    }

    static let types: Set<String> = ["app_state", "orientation", "dismiss"]

    /// The control line in `json`, nil when `json` is not a control line (an event, or invalid).
    init?(_ json: JSONValue) throws {
        guard case .string(let type)? = json["type"], Self.types.contains(type) else { return nil }
        let time = try EventDecoder.controlTime(json["time"])
        switch type {
        case "app_state":
            guard case .string(let s)? = json["state"], let state = AppState(rawValue: s) else {
                throw InputError(path: "state", reason: "app_state needs \"state\": \"foreground\" or \"background\"")
            }
            self = .appState(time, state)
        case "orientation":
            guard case .string(let s)? = json["value"], let o = DeviceOrientation(rawValue: s) else {
                throw InputError(path: "value", reason: "orientation needs \"value\": \"portrait\" or \"landscape\"")
            }
            self = .orientation(time, o)
        default:
            self = .dismiss(time)
        }
    }
}
