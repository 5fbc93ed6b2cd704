import Foundation

/// Whether this binary was built for measuring.
package enum BuildInfo {
    #if DEBUG
    package static let configuration = "debug"
    #else
    package static let configuration = "release"
    #endif

    package static var swiftVersion: String {
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
