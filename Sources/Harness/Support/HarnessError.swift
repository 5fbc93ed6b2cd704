/// A run that could not be completed for a reason that is not bad input: a tool that is missing or
/// failed, a writer whose build failed (exit 2, one line, like an `InputError`).
public struct HarnessError: Error, CustomStringConvertible, Equatable {
    /// What failed: a tool, a row, a file.
    public var what: String
    public var reason: String

    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    public var description: String { "\(what): \(reason)" }
}
