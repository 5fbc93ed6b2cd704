import Foundation
import TriggerKit

/// No number for a wrong matcher: before a plugin is timed or counted it must agree with `reference`
/// on every conformance case and on a short run of generated cases. A user may opt out
/// (`--no-plugin-check`); the results then record that the plugin was not checked.
public enum PluginAdmission {
    /// Generated cases a plugin must pass besides the shipped ones: a fixed seed, so the same plugin
    /// is always admitted or refused alike, bounded in time for slow plugins.
    public static let rounds = 40
    public static let seconds = 10.0

    /// Throws `ChecksumMismatch` (exit 1) naming the first case the plugin answers wrongly.
    public static func check(_ library: PluginLibrary, cases directory: String = Conformance.defaultDirectory) throws {
        let refuse = { (what: String) in
            ChecksumMismatch(description: "\(library.strategyName) is not measured: \(what); `bench conform --plugin \(ShellWord.quoted(library.argument))` shows each case, `bench conform --generate --seed 1 --rounds \(rounds) --plugin \(ShellWord.quoted(library.argument))` writes the smallest one; --no-plugin-check measures it anyway (the results record that it was not checked)")
        }
        for folder in try Conformance.cases(in: directory) {
            let result = try Conformance.check(case: folder) { corpus in library.strategy(corpusJSON: corpus.json, of: corpus.set) }
            if let first = result.disagreements.first {
                throw refuse("it disagrees with reference on conformance case \(result.name), \(first.description)")
            }
            if result.invalidResults > 0 { throw refuse("it broke the plugin ABI on conformance case \(result.name)") }
        }
        var check = GeneratedCheck(contenders: [GeneratedCheck.Contender(plugin: library)], seed: 1)
        check.shrinkBudget = 5
        var finding: GeneratedCheck.Finding?
        _ = check.run(rounds: rounds, until: Date().addingTimeInterval(seconds)) { finding = $0 }
        if let finding {
            throw refuse("on generated case \(finding.round) of seed 1 it \(finding.summary)")
        }
    }
}
