// libFuzzer target: arbitrary bytes as a results file (what `bench check` reads). Decoding must
// succeed or throw an InputError, and a decoded report must render and compare with itself.
import Harness
import TriggerKit

func fuzzResultsFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let report = try? RunReport.decode(bytes, file: "fuzz") else { return 0 }
    _ = report.table()
    _ = report.markdown()
    _ = try? Gate.compare(baseline: report, current: report, options: Gate.Options())
    return 0
}
