/// A matcher answered wrongly: it disagreed with `reference`, with another strategy or build, with
/// itself across repetitions, or (a plugin) broke the ABI. A correctness bug, not bad input (exit 1,
/// docs/semantics.md "Exit codes").
package struct MatchedWrongly: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) { self.description = description }
}
