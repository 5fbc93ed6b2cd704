import Foundation

/// The one spelling of a string that regexes see: Unicode NFC. Strings are equal under canonical
/// equivalence, so an event may spell a value decomposed (`"cafe\u{301}"`) where the corpus spells it
/// composed; RE2 matches bytes, so without one spelling a regex's answer would depend on which spelling
/// was interned first — that is, on the other triggers in the set.
package enum CanonicalText {
    /// `s` in NFC; ASCII strings (already NFC) are returned as they are, without a copy.
    package static func nfc(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        return s.precomposedStringWithCanonicalMapping
    }
}
