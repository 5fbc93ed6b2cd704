import TriggerKit

/// A strategy a run measures: one of TriggerKit's, or one a library adds (`PluginLibrary.runStrategy`).
/// Everything after the configuration sees only this, so built-in and foreign matchers take one path.
package struct RunStrategy: Sendable {
    /// The row name: `compiled`, `plugin:NAME`, ….
    package let name: String
    /// What the results file records of where a foreign strategy came from (nil: built in).
    package let origin: RunMetadata.Settings.Plugin?
    /// The extra arguments the instruction counter's child process (`bench instructions --child NAME`) is
    /// given to make this strategy again (a plugin's `--child-plugin PATH,options`).
    package let childArguments: [String]
    /// The strategy for the loaded input (a foreign one may need the corpus as JSON text).
    let resolve: @Sendable (LoadedInput) throws -> StrategyRegistry.Strategy

    package init(name: String, origin: RunMetadata.Settings.Plugin?, childArguments: [String],
                 resolve: @escaping @Sendable (LoadedInput) throws -> StrategyRegistry.Strategy) {
        self.name = name
        self.origin = origin
        self.childArguments = childArguments
        self.resolve = resolve
    }

    /// The built-in strategy `name`, or an input error listing the known ones.
    package static func builtIn(_ name: String) throws -> RunStrategy {
        let strategy = try StrategyRegistry.option(name)
        return RunStrategy(name: name, origin: nil, childArguments: [], resolve: { _ in strategy })
    }

    /// Every built-in strategy, in the registry's order.
    package static var allBuiltIn: [RunStrategy] { StrategyRegistry.names.map { try! builtIn($0) } }

    /// The same strategy under another row name (two builds of one plugin, told apart by their paths).
    package func renamed(_ name: String) -> RunStrategy {
        RunStrategy(name: name, origin: origin, childArguments: childArguments, resolve: resolve)
    }

    /// The strategy for `input`.
    package func strategy(for input: LoadedInput) throws -> StrategyRegistry.Strategy { try resolve(input) }
}
