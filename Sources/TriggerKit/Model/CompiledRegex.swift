import Foundation

/// A case-insensitive search pattern compiled once at load (SPEC §2: `regex` is a partial match anywhere).
public final class CompiledRegex: @unchecked Sendable {
    // NSRegularExpression is immutable after init and documented thread-safe for matching.
    private let expression: NSRegularExpression
    public let pattern: String

    /// Compiles `pattern`; throws a readable reason when it is not a valid ICU regular expression.
    public init(_ pattern: String) throws(CompiledRegex.InvalidPattern) {
        self.pattern = pattern
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw InvalidPattern(pattern: pattern)
        }
    }

    /// True when the pattern matches anywhere in `text`.
    public func search(_ text: String) -> Bool {
        let range = NSRange(location: 0, length: text.utf16.count)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    public struct InvalidPattern: Error {
        public let pattern: String
    }
}
