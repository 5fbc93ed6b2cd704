import ArgumentParser
import Foundation
import Harness
import TriggerKit

extension ConformCommand {
    /// The matchers `--generate` checks: the plugin, the named strategy, or every built-in one.
    func contenders() throws -> [GeneratedCheck.Contender] {
        if let plugin {
            let library = try PluginLibrary(argument: plugin)
            TextOutput.standardError(library.loadedNotice)
            return [GeneratedCheck.Contender(name: library.strategyName) { json, set, vocabulary, _ in
                try library.strategy(corpusJSON: json).make(set, vocabulary)
            }]
        }
        if let strategy { return [GeneratedCheck.Contender(strategy: StrategyRegistry.named(strategy)!)] }
        return GeneratedCheck.Contender.builtIn
    }

    func runGenerated() throws {
        let seed = self.seed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        let contenders = try contenders()
        let seconds = self.seconds ?? 10, writeCases = self.writeCases ?? "generated-cases"
        let bound = rounds.map { "\($0) rounds or \(Self.format(seconds)) s" } ?? "\(Self.format(seconds)) s"
        try TextOutput.printLine("generating cases: seed \(seed), up to \(bound); \(contenders.map(\.name).joined(separator: ", ")) against reference")
        let started = Date()
        var lastNote = started
        var findings: [GeneratedCheck.Finding] = []
        let check = GeneratedCheck(contenders: contenders, seed: seed)
        let tally = try check.run(rounds: rounds ?? .max, until: started.addingTimeInterval(seconds), progress: { tally in
            guard isatty(2) != 0, Date().timeIntervalSince(lastNote) > 1 else { return }
            lastNote = Date()
            TextOutput.standardErrorRaw("\r\u{1B}[K\(tally.rounds) cases, \(tally.events) events, \(Int(Date().timeIntervalSince(started))) s")
        }) { finding in
            if isatty(2) != 0 { TextOutput.standardErrorRaw("\r\u{1B}[K") }
            let folder = writeCases + "/" + Self.folderName(finding)
            findings.append(finding)
            // Said before it is written: a folder that cannot be written still leaves the finding on screen.
            try TextOutput.printLine("FAIL  \(PrintableText.escaped(finding.contender)) \(PrintableText.escaped(finding.summary))")
            try CaseSummary.write(finding, to: folder)
            let size = "\(finding.shrunk.triggers.count) trigger\(finding.shrunk.triggers.count == 1 ? "" : "s"), \(finding.shrunk.events.count) event\(finding.shrunk.events.count == 1 ? "" : "s")"
            // A delta writer's case is base.json plus delta.json: only the generator rebuilds it that way.
            let again = finding.throughDelta ? "bench conform --generate --seed \(seed) --rounds \(finding.round + 1)"
                : "bench conform \(plugin.map { "--plugin \($0)" } ?? "--strategy \(finding.contender)") --cases \(folder)"
            try TextOutput.printLine("      case: \(folder) (\(size)); replay it: \(again)")
        }
        if isatty(2) != 0 { TextOutput.standardErrorRaw("\r\u{1B}[K") }
        for contender in contenders where !findings.contains(where: { $0.contender == contender.name }) {
            try TextOutput.printLine("ok    \(PrintableText.escaped(contender.name)): \(tally.rounds) cases, \(tally.events) events agree with reference")
        }
        try TextOutput.printLine("seed \(seed): \(tally.rounds) generated cases (\(tally.triggers) triggers, \(tally.events) events) in \(Self.format(Date().timeIntervalSince(started))) s; \(findings.count) of \(contenders.count) matcher\(contenders.count == 1 ? "" : "s") disagree")
        if tally.refusedCorpora > 0 {
            TextOutput.standardError("bench: warning: \(tally.refusedCorpora) generated corpora were refused by the decoder and checked nothing (a generator bug; please report it with the seed)")
        }
        if !findings.isEmpty { throw ExitCode(Exit.regression) }
    }

    static func folderName(_ f: GeneratedCheck.Finding) -> String {
        let name = f.contender.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return "\(String(name))-seed\(f.seed)-round\(f.round)"
    }

    static func format(_ seconds: Double) -> String { String(format: seconds < 10 ? "%.1f" : "%.0f", seconds) }
}
