// libFuzzer target: arbitrary bytes as a results file (what `bench check` reads). Decoding must
// succeed or throw an InputError, and a decoded report must render and compare with itself.
import Harness
@testable import TriggerKit

func fuzzResultsFile(_ bytes: [UInt8]) {
    guard let report = try? RunReport.decode(bytes, file: "fuzz") else { return }
    _ = report.table()
    _ = report.markdown()
    _ = try? Gate.compare(baseline: report, current: report, options: Gate.Options())
}
