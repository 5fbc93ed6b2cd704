/// The app's state a message is checked against: whether it can show one now (`AppState`) and its
/// orientation (`DeviceOrientation`).

/// Whether the app can show a message right now.
public enum AppState: String, Sendable { case foreground, background }

/// The device orientation messages are checked against.
public enum DeviceOrientation: String, Sendable { case portrait, landscape }
