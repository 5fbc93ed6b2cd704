// The one libFuzzer entry point of the fuzzing executable: scripts/fuzz names the decoder to fuzz in
// TRIGGER_BENCH_FUZZ_TARGET, so that one sanitized build serves every target.
import Foundation

let fuzzTargets: [String: @Sendable ([UInt8]) -> Void] = [
    "corpus": fuzzCorpusDecoder, "delta": fuzzDeltaDecoder, "event": fuzzEventDecoder,
    "payload": fuzzPayloadDecoder, "workload": fuzzWorkloadSpec, "results": fuzzResultsFile,
]

/// Looked up once: the environment does not change during a run.
let fuzzTarget: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["TRIGGER_BENCH_FUZZ_TARGET"] ?? ""
    guard let target = fuzzTargets[name] else {
        FileHandle.standardError.write(Data("DecoderFuzz: set TRIGGER_BENCH_FUZZ_TARGET to one of \(fuzzTargets.keys.sorted().joined(separator: ", ")) (scripts/fuzz does)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzTarget(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
