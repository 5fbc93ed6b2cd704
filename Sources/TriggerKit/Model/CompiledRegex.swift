import CRE2

/// A case-insensitive search pattern compiled once at load (`regex` is a partial match anywhere),
/// decided by RE2 in time linear in the text, so no pattern can stall matching.
public final class CompiledRegex: @unchecked Sendable {
    /// A bound on what this compiled pattern holds, RE2's parsed pattern and program and our literals
    /// together, for memory accounting (`MemoryAllowance`): per pattern byte for the parse and the
    /// literals, per program instruction for what counted repetition (`(abc){1000}`) expands to.
    package var bytesBound: Int { 2048 + 128 * pattern.utf8.count + 96 * trigger_bench_regex_program_size(handle) }

    // RE2 objects are immutable after compilation and safe to match from many threads at once.
    package let handle: OpaquePointer
    public let pattern: String
    /// The pattern as plain literals, when it is only that: decided without RE2 where that is exact.
    let literal: LiteralPattern?

    /// Compiles `pattern` in RE2 syntax; throws RE2's reason when it cannot (a syntax error, or a
    /// construct that would need backtracking, such as a backreference or lookaround).
    public init(_ pattern: String) throws(CompiledRegex.InvalidPattern) {
        self.pattern = pattern
        var reason = [CChar](repeating: 0, count: 256)
        // Compiled in NFC, the spelling the text it searches is in (CanonicalText).
        var text = CanonicalText.nfc(pattern)
        literal = LiteralPattern(nfc: Array(text.utf8))
        let compiled = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                trigger_bench_regex_compile($0.baseAddress, $0.count, &reason, reason.count)
            }
        }
        guard let compiled else {
            throw InvalidPattern(pattern: pattern, reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = compiled
    }

    deinit { trigger_bench_regex_free(handle) }

    /// True when the pattern matches anywhere in `text`.
    public func search(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { trigger_bench_regex_search(handle, $0.baseAddress, $0.count) != 0 }
        }
    }

    /// True when the pattern matches anywhere in the UTF-8 `text` (NFC): plain literals found directly
    /// where that is exactly RE2's answer, RE2 otherwise. The matchers' path; `reference` asks RE2 alone.
    @usableFromInline package func search(_ text: UnsafePointer<UInt8>?, count: Int) -> Bool {
        if let literal, let text, let answer = literal.matches(text, count: count) { return answer }
        return UnsafeRawPointer(text).map { trigger_bench_regex_search(handle, $0.assumingMemoryBound(to: CChar.self), count) != 0 }
            ?? (trigger_bench_regex_search(handle, "", 0) != 0)
    }

    public struct InvalidPattern: Error {
        public let pattern: String
        /// RE2's reason, e.g. "invalid perl operator: (?<".
        public let reason: String
        /// The pattern may be fine: there was no memory to compile it (the reason CRE2.cpp gives then).
        package var outOfMemory: Bool { reason == "out of memory" }
    }
}
