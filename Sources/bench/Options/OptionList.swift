import ArgumentParser

/// Comma-separated option values (`--strategies a,b`, `--threads 1,2`).
enum OptionList {
    /// The items of a comma-separated list, trimmed; an empty list or an empty item is a usage error.
    static func items(_ option: String, _ text: String) throws -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw ValidationError("\(option) needs a comma-separated list with no empty items, got \"\(text)\"")
        }
        return items
    }
}
