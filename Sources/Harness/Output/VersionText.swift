import CTriggerBenchPlugin
import TriggerKit
import Workload

/// What `bench --version` prints: the checkout this binary was built from and its commit (read now,
/// as results files record it), and the formats and plugin ABI this build reads and writes.
package enum VersionText {
    package static func describe() -> String {
        let (commit, dirty) = RunMetadata.gitState()
        let source: String
        if let root = SourceTree.root {
            let at = commit.map { ", now at commit \($0.prefix(12))" + (dirty == true ? " with uncommitted changes" : "") } ?? ""
            source = "built from the checkout at \(PrintableText.escaped(root))\(at)"
        } else {
            source = "its checkout is gone (presets, cases and the commit are unknown)"
        }
        return """
            bench (TriggerBench), \(source)
            reads \(CorpusDecoder.format) corpora, \(DeltaDecoder.format) deltas, \(WorkloadSpec.format) and \(WorkloadSpec.fittedFormat) workload specs, results files \(RunReport.readableSchemas.joined(separator: ", "))
            writes results files \(RunReport.schemaName); loads plugins of ABI versions \(TB_PLUGIN_ABI_MIN_VERSION) to \(TB_PLUGIN_ABI_VERSION)
            """
    }
}
