/// Strategies disagreed: a correctness bug (exit 1, docs/semantics.md "Exit codes").
public struct ChecksumMismatch: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
