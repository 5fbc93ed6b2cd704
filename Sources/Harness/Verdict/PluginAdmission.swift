import Foundation
import TriggerKit

/// No number for a wrong matcher: before a plugin is timed or counted it must agree with `reference`
/// on every conformance case and on a short run of generated cases. A user may opt out
/// (`--no-plugin-check`); the results then record that the plugin was not checked.
package enum PluginAdmission {
    /// Generated cases a plugin must pass besides the shipped ones: a fixed seed, so the same plugin
    /// is always admitted or refused alike, bounded in time for slow plugins.
    package static let rounds = 40
    package static let seconds = 10.0

    /// Throws `MatchedWrongly` (exit 1) naming the first case the plugin answers wrongly. Cases a
    /// partial plugin's `create` refuses are skipped; refusing all of them is an error (exit 2).
    /// Returns what was checked, in words ("the 22 conformance cases and 40 generated ones").
    @discardableResult
    package static func check(_ library: PluginLibrary, cases directory: String = Conformance.defaultDirectory) throws -> String {
        let refuse = { (what: String) in
            MatchedWrongly(description: "\(library.strategyName) is not measured: \(what); `bench conform --plugin \(ShellWord.quoted(library.argument))` shows each case, `bench conform --generate --seed 1 --rounds \(rounds) --plugin \(ShellWord.quoted(library.argument))` writes the smallest one; --no-plugin-check measures it anyway (the results record that it was not checked)")
        }
        var agreed = 0
        let folders = try Conformance.cases(in: directory)
        for folder in folders {
            let result = try Conformance.check(case: folder) { corpus in library.strategy(corpusJSON: corpus.json, of: corpus.set) }
            // A partial plugin's refused case checks nothing; it is judged on the cases it takes.
            if result.refused != nil { continue }
            agreed += 1
            if let first = result.disagreements.first {
                throw refuse("it disagrees with reference on conformance case \(result.name), \(first.description)")
            }
            if result.invalidResults > 0 { throw refuse("it broke the plugin ABI on conformance case \(result.name)") }
        }
        if agreed == 0 {
            throw HarnessError(what: library.strategyName, reason: "is not measured: its create refused every conformance case, so nothing could be checked; --no-plugin-check measures it anyway (the results record that it was not checked)")
        }
        var check = GeneratedCheck(contenders: [GeneratedCheck.Contender(plugin: library)], seed: 1)
        check.shrinkBudget = 5
        var finding: GeneratedCheck.Finding?
        let tally = check.run(rounds: rounds, until: Date().addingTimeInterval(seconds)) { finding = $0 }
        if let finding {
            throw refuse("on generated case \(finding.round) of seed 1 it \(finding.summary)")
        }
        let generatedRefused = tally.refusedByContender.values.reduce(0, +)
        return "the \(agreed) conformance cases" + (agreed < folders.count ? " its create took (of \(folders.count))" : "")
            + " and \(tally.rounds - generatedRefused) generated ones" + (generatedRefused > 0 ? " (of \(tally.rounds))" : "")
    }
}
