// libFuzzer target: arbitrary bytes as a workload spec file. Decoding must succeed or throw an
// InputError; a decoded spec's buffer estimate must not trap, whatever its numbers.
@testable import TriggerKit
import Workload

func fuzzWorkloadSpec(_ bytes: [UInt8]) {
    guard let spec = try? WorkloadSpec.decode(bytes, file: "fuzz") else { return }
    _ = try? spec.checkReplayBuffersFit(events: spec.events, file: "fuzz")
}
