/// A run that could not be completed for a reason that is not bad input: a tool that is missing or
/// failed, a writer whose build failed (exit 2, one line, like an `InputError`).
package struct HarnessError: Error, CustomStringConvertible, Equatable {
    /// What failed: a tool, a row, a file.
    package var what: String
    package var reason: String

    package init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }

    package var description: String { "\(what): \(reason)" }
}
