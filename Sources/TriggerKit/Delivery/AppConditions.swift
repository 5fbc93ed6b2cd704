/// Whether the app can show a message right now.
public enum AppState: String, Sendable { case foreground, background }

/// The device orientation messages are checked against.
public enum DeviceOrientation: String, Sendable { case portrait, landscape }
