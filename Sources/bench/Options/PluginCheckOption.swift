import ArgumentParser
import Foundation
import Harness

/// `--no-plugin-check`, and the loading of `--plugin` libraries that checks each one first
/// (`PluginAdmission`): a plugin that answers wrongly gets no timed row and no count.
struct PluginCheckOption: ParsableArguments {
    @Flag(name: .customLong("no-plugin-check"), help: "Time or count --plugin libraries without first checking them against the conformance cases and 40 generated cases (about a second for a simple plugin); the results record that they were not checked.")
    var skip = false

    /// Loads the libraries and, unless skipped, checks each: throws (exit 1) on the first that disagrees.
    func load(_ arguments: [String]) throws -> [PluginLibrary] {
        let libraries = try PluginLibrary.load(arguments: arguments)
        guard !skip else {
            for library in libraries {
                TextOutput.standardError("bench: \(library.strategyName) is measured without the pre-run check (--no-plugin-check); the run still compares its matches with reference's")
            }
            return libraries
        }
        for library in libraries {
            let started = Date()
            let checked = try PluginAdmission.check(library)
            TextOutput.standardError("bench: \(library.strategyName) agrees with reference on \(checked) (\(String(format: "%.1f", Date().timeIntervalSince(started))) s; --no-plugin-check skips this)")
        }
        return libraries
    }

    /// `load`, each library as the strategy a run measures (recording whether it was checked).
    func strategies(_ arguments: [String]) throws -> [RunStrategy] {
        try load(arguments).map { $0.runStrategy(checked: !skip) }
    }
}
