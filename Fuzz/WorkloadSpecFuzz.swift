// libFuzzer target: arbitrary bytes as a workload spec file. Decoding must succeed or throw an
// InputError; a decoded spec's buffer estimate must not trap, whatever its numbers.
import TriggerKit
import Workload

func fuzzWorkloadSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let spec = try? WorkloadSpec.decode(bytes, file: "fuzz") else { return 0 }
    _ = try? spec.checkReplayBuffersFit(events: spec.events, file: "fuzz")
    return 0
}
