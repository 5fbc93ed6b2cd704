/// The strategies (docs/strategies.md) by name, each a way to build a `Matcher` (and a delta writer).
public enum StrategyRegistry {
    public struct Strategy: Sendable {
        public let name: String
        public let summary: String
        /// Builds the matcher for a trigger set (compiles, interns, indexes: load time). Only a
        /// plugin's can fail.
        public let make: @Sendable (TriggerSet, Vocabulary) throws -> any Matcher
        /// Makes the writer that publishes deltas to this strategy's matchers (docs/deltas.md): one
        /// that applies them, or by default one that rebuilds the set for each. The table is the one
        /// the readers' events were interned with (nil: the vocabulary's).
        public let makeWriter: @Sendable (TriggerSet, Vocabulary, SymbolTable?) throws -> any TriggerSetWriter

        package init(name: String, summary: String, make: @escaping @Sendable (TriggerSet, Vocabulary) throws -> any Matcher,
                    makeWriter: (@Sendable (TriggerSet, Vocabulary, SymbolTable?) throws -> any TriggerSetWriter)? = nil) {
            self.name = name
            self.summary = summary
            self.make = make
            self.makeWriter = makeWriter ?? { try RebuildingWriter($0, vocabulary: $1, symbols: $2, make: make) }
        }
    }

    public static let all: [Strategy] = [
        Strategy(name: ReferenceMatcher.strategyName,
                 summary: "the oracle: linear scan, string compares, filters interpreted over a [String: Value] dictionary",
                 make: { ReferenceMatcher($0, vocabulary: $1) }),
        Strategy(name: IndexedMatcher.strategyName,
                 summary: "interned ids, triggers bucketed by (kind, name/product/campaign id); filters interpreted",
                 make: { IndexedMatcher($0, vocabulary: $1) }),
        Strategy(name: CompiledMatcher.strategyName,
                 summary: "indexed + filters compiled to flat typed predicates, interned string compares, memoised regex",
                 make: { CompiledMatcher($0, vocabulary: $1) },
                 makeWriter: { LayeredWriter<CompiledMatcher>($0, vocabulary: $1, symbols: $2) }),
        Strategy(name: PredicateIndexMatcher.strategyName,
                 summary: "compiled + equality/range access-predicate index on crowded buckets (BE-Tree / k-index family)",
                 make: { PredicateIndexMatcher($0, vocabulary: $1) },
                 makeWriter: { LayeredWriter<PredicateIndexMatcher>($0, vocabulary: $1, symbols: $2) }),
        Strategy(name: FloorMatcher.strategyName,
                 summary: "read the event and look up its buckets, evaluate nothing: the cost every strategy pays",
                 make: { FloorMatcher($0, vocabulary: $1) }),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) -> Strategy? { all.first { $0.name == name } }

    /// The strategy the delivery engine uses unless told otherwise, and the one plugins are checked against
    /// when no other built-in strategy runs beside them.
    public static let defaultStrategyName = CompiledMatcher.strategyName

    /// A matching function over decoded events, for the delivery engine and `bench replay --strategy`.
    /// Each call interns the event into a one-event column buffer (allocates; fine off the hot path).
    public static func eventMatcher(_ strategy: Strategy) -> @Sendable (TriggerSet) -> (Event) -> [Int] {
        { set in
            let vocabulary = Vocabulary(set)
            // Built-in strategies cannot fail to build.
            let matcher = try! strategy.make(set, vocabulary)
            return { event in
                var columns = EventColumns(vocabulary: vocabulary)
                columns.append(event)
                let scratch = matcher.makeScratch(for: columns)
                columns.withView { matcher.match(0, in: $0, scratch: scratch) }
                return scratch.sortedResults
            }
        }
    }
}
