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
            return [GeneratedCheck.Contender(plugin: library)]
        }
        return GeneratedCheck.Contender.builtIn.filter { strategy == nil || $0.name == strategy }
    }

    func runGenerated() throws {
        let seed = self.seed ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        let contenders = try contenders()
        let seconds = self.seconds ?? 10, writeCases = self.writeCases ?? "generated-cases"
        if self.writeCases == nil { try Self.checkCaseFolder(writeCases) }
        let bound = rounds.map { "\($0) rounds or \(Self.format(seconds)) s" } ?? "\(Self.format(seconds)) s"
        try TextOutput.printLine("generating cases: seed \(seed), up to \(bound); \(contenders.map(\.name).joined(separator: ", ")) against reference")
        let started = Date()
        let progress = ProgressLine(enabled: true)
        var findings: [GeneratedCheck.Finding] = []
        let check = GeneratedCheck(contenders: contenders, seed: seed)
        let tally = try check.run(rounds: rounds ?? .max, until: started.addingTimeInterval(seconds), progress: { tally in
            progress.status("\(tally.rounds) cases, \(tally.events) events")
        }) { finding in
            progress.note("")
            let folder = writeCases + "/" + Self.folderName(finding)
            findings.append(finding)
            try TextOutput.printLine("FAIL  \(PrintableText.escaped(finding.contender)) \(PrintableText.escaped(finding.summary))")
            let size = "\(finding.shrunk.triggers.count) trigger\(finding.shrunk.triggers.count == 1 ? "" : "s"), \(finding.shrunk.events.count) event\(finding.shrunk.events.count == 1 ? "" : "s")"
            do {
                try CaseSummary.write(finding, to: folder, rerun: rerun(finding))
                try TextOutput.printLine("      case: \(folder) (\(size)); replay it: \(replay(finding, folder))")
            } catch let error as InputError {
                // The finding stands (exit 1 below); only its folder is lost.
                TextOutput.standardError("bench: error: \(PrintableText.escaped("\(error)"))")
            }
        }
        progress.note("")
        for contender in contenders where !findings.contains(where: { $0.contender == contender.name }) {
            let refused = tally.refusedByContender[contender.name] ?? 0
            let checked = tally.rounds - refused
            if checked == 0 {
                try TextOutput.printLine("skip  \(PrintableText.escaped(contender.name)): its create refused all \(tally.rounds) generated case\(tally.rounds == 1 ? "" : "s"); nothing was checked")
                continue
            }
            try TextOutput.printLine("ok    \(PrintableText.escaped(contender.name)): " + (refused == 0
                ? "\(tally.rounds) case\(tally.rounds == 1 ? "" : "s"), \(tally.events) events agree with reference"
                : "\(checked) of \(tally.rounds) cases agree with reference; its create refused the other \(refused)"))
        }
        try TextOutput.printLine("seed \(seed): \(tally.rounds) generated case\(tally.rounds == 1 ? "" : "s") (\(tally.triggers) triggers, \(tally.events) events) in \(Self.format(Date().timeIntervalSince(started))) s; \(findings.count) of \(contenders.count) matcher\(contenders.count == 1 ? "" : "s") disagree")
        if tally.refusedCorpora > 0 {
            TextOutput.standardError("bench: warning: \(tally.refusedCorpora) generated corpora were refused by the decoder and checked nothing (a generator bug; please report it with the seed)")
        }
        if !findings.isEmpty { throw ExitCode(Exit.regression) }
        if let all = contenders.first(where: { tally.refusedByContender[$0.name] == tally.rounds }) {
            throw HarnessError(what: all.name, reason: "refused every generated corpus in create, so nothing was checked")
        }
    }

    /// The command that finds `f` again: the same seed and rounds, this matcher only.
    func rerun(_ f: GeneratedCheck.Finding) -> String {
        let matcher = plugin.map { "--plugin " + ShellWord.quoted($0) } ?? "--strategy " + ShellWord.quoted(f.contender)
        return "bench conform --generate --seed \(f.seed) --rounds \(f.round + 1) --seconds 86400 \(matcher)"
    }

    /// The command that replays `f`'s written case (a delta writer's case needs the generator: plain
    /// replay builds the corpus whole).
    func replay(_ f: GeneratedCheck.Finding, _ folder: String) -> String {
        if f.throughDelta { return rerun(f) }
        return "bench conform \(plugin.map { "--plugin " + ShellWord.quoted($0) } ?? "--strategy " + ShellWord.quoted(f.contender)) --cases \(ShellWord.quoted(folder))"
    }

    /// Refuses, before any case is generated, a --write-cases that could never hold a case folder.
    static func checkCaseFolder(_ path: String) throws {
        guard !path.isEmpty else { throw ValidationError("--write-cases needs a folder path, got an empty one") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ValidationError("--write-cases \(path): is not a folder; give a folder for the case folders") }
            guard FileManager.default.isWritableFile(atPath: path) else { throw ValidationError("--write-cases \(path): the folder is not writable") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: parent.isEmpty ? "." : parent) else {
            throw ValidationError("--write-cases \(path): cannot be created (\(parent.isEmpty ? "." : parent) is not a writable folder)")
        }
    }

    static func folderName(_ f: GeneratedCheck.Finding) -> String {
        let name = f.contender.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return "\(String(name))-seed\(f.seed)-round\(f.round)"
    }

    static func format(_ seconds: Double) -> String { String(format: seconds < 0.1 ? "%.2g" : seconds < 10 ? "%.1f" : "%.0f", seconds) }
}
