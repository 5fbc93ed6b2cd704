import Foundation

/// Whether this binary was built for measuring.
public enum BuildInfo {
    #if DEBUG
    public static let configuration = "debug"
    #else
    public static let configuration = "release"
    #endif

    public static var swiftVersion: String {
        #if compiler(>=6.4)
        return "6.4+"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "<6.3"
        #endif
    }
}
