/// Parses a JSON document into a `JSONValue` tree (integers kept apart from doubles, key order kept,
/// duplicate keys refused), through a `JSONTape`; see `JSONScanner` for what is refused.
package enum JSONParser {
    /// Deepest nesting of arrays and objects accepted.
    package static let defaultMaxDepth = 256

    /// Why a document could not be parsed, and where.
    package struct SyntaxError: Error, CustomStringConvertible, Equatable {
        package let line: Int
        package let column: Int
        package let reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Parses one complete JSON document; trailing non-whitespace is an error.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(SyntaxError) -> JSONValue {
        let tape = JSONTape(bytes: bytes)
        try tape.parseDocument(maxDepth: maxDepth)
        return tape.value(0)
    }

    package static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(SyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
