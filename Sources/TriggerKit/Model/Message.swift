/// The in-app message a trigger shows.
public struct Message: Sendable, Equatable {
    public enum Orientation: String, Sendable { case any, portrait, landscape }

    public var type: String
    public var orientation: Orientation
    /// Asset URLs to load before display.
    public var assets: [String]
    /// Key-value pairs the app reads from the message.
    public var extras: [String: String]

    public init(type: String = "modal", orientation: Orientation = .any, assets: [String] = [], extras: [String: String] = [:]) {
        self.type = type
        self.orientation = orientation
        self.assets = assets
        self.extras = extras
    }
}
