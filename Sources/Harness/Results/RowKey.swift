/// Which row of a run a result is: a strategy × publication mode × reader thread count.
package struct RowKey: Codable, Hashable, Sendable, CustomStringConvertible {
    package var strategy: String
    package var publication: Publication
    package var threads: Int

    package init(strategy: String, publication: Publication = .none, threads: Int = 1) {
        self.strategy = strategy
        self.publication = publication
        self.threads = threads
    }

    /// One reader thread and no publication: the row that single-event latency, instruction counts and
    /// allocation counts describe.
    package var isPlain: Bool { threads == 1 && publication == .none }

    /// The same configuration for another strategy (the peer a ratio divides by).
    package func with(strategy: String) -> RowKey { RowKey(strategy: strategy, publication: publication, threads: threads) }

    package var description: String { "\(strategy) \(publication.rawValue) ×\(threads)" }

    /// The strategy alone for a plain row, else the whole key (the label tables and charts use).
    package var label: String { isPlain ? strategy : description }
}
