import Foundation

/// A set of names (a corpus's event names, the properties one event's filters read) that answers
/// "which of them did this unknown spelling mean?": the one it equals after case folding and Unicode
/// compatibility form, or failing that one letter away (added, dropped, changed or two swapped).
///
/// One-letter neighbours are found through a table of each name with one letter deleted (the
/// symmetric-deletion method): two words one edit apart share a word with at most one letter
/// deleted from each, so a lookup costs one probe per letter of the unknown word, whatever the
/// set's size. Candidates from the table are confirmed by computing the distance.
package struct NearSpellings {
    /// Folded spelling to the spelling the set uses (the least, so the answer is the same every run).
    private var folded: [String: String] = [:]
    /// A folded name with one letter deleted to the folded name; built only for sets of up to
    /// `deletionLimit` names, which bounds its memory (about a dozen strings per name).
    private var deletions: [String: String] = [:]

    static let deletionLimit = 20_000
    /// Shorter words are left to folding alone: one letter changes a third of `id` or `sku`.
    static let shortestForDistance = 4

    package init(_ names: some Collection<String>) {
        for name in names {
            let f = Self.fold(name)
            if let held = folded[f], held <= name { continue }
            folded[f] = name
        }
        guard folded.count <= Self.deletionLimit else { return }
        for f in folded.keys.sorted() where f.count >= Self.shortestForDistance {
            for d in Self.oneDeleted(f) where deletions[d] == nil { deletions[d] = f }
        }
    }

    var isEmpty: Bool { folded.isEmpty }

    /// The set's name `word` is most likely a misspelling of, or nil. A word that differs from a name
    /// only in its digits (`level_3` beside `level_4`, `ev-68` beside `ev-686`) is taken as another
    /// member of a numbered family, not a mistake.
    package func suggestion(for word: String) -> String? {
        let f = Self.fold(word)
        if let name = folded[f] { return name }
        guard !deletions.isEmpty, f.count >= Self.shortestForDistance else { return nil }
        var candidates: [String] = []
        if let c = deletions[f] { candidates.append(c) }  // the word dropped a letter of the name
        for d in Self.oneDeleted(f) {
            if folded[d] != nil { candidates.append(d) }  // the word added one
            if let c = deletions[d] { candidates.append(c) }  // changed or swapped one
        }
        let best = candidates.filter { Self.withinOneEdit(f, $0) && !Self.differOnlyInDigits(f, $0) }.min()
        return best.flatMap { folded[$0] }
    }

    /// Case-folded NFKC: `Purchase`, `purchase` and `ｐｕｒｃｈａｓｅ` fold alike.
    static func fold(_ s: String) -> String { s.precomposedStringWithCompatibilityMapping.lowercased() }

    static func oneDeleted(_ word: String) -> [String] {
        let letters = Array(word)
        return letters.indices.map { i in String(letters[..<i] + letters[(i + 1)...]) }
    }

    /// Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours.
    static func withinOneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if x == y { return true }
        if abs(x.count - y.count) > 1 { return false }
        var i = 0
        while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
        if x.count == y.count {
            if x[(i + 1)...] == y[(i + 1)...] { return true }
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...] == y[(i + 2)...]
        }
        let (long, short) = x.count > y.count ? (x, y) : (y, x)
        return long[(i + 1)...] == short[i...]
    }

    static func differOnlyInDigits(_ a: String, _ b: String) -> Bool {
        let letters = { (s: String) in s.unicodeScalars.filter { !("0"..."9").contains($0) } }
        return String(String.UnicodeScalarView(letters(a))) == String(String.UnicodeScalarView(letters(b)))
    }
}
