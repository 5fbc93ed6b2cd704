import Foundation

// One sanitized build holds every decoder target (building each alone cost a build of the modules
// apiece); TRIGGER_BENCH_FUZZ_TARGET, read once, says which one libFuzzer drives.
let fuzzTarget: @Sendable (UnsafePointer<UInt8>, Int) -> CInt = {
    switch ProcessInfo.processInfo.environment["TRIGGER_BENCH_FUZZ_TARGET"] {
    case "corpus": return fuzzCorpusDecoder
    case "delta": return fuzzDeltaDecoder
    case "event": return fuzzEventDecoder
    case "payload": return fuzzPayloadDecoder
    case "workload": return fuzzWorkloadSpec
    case "results": return fuzzResultsFile
    case let other:
        FileHandle.standardError.write(Data("TRIGGER_BENCH_FUZZ_TARGET must be corpus, delta, event, payload, workload or results (got \(other ?? "nothing"))\n".utf8))
        exit(2)
    }
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    _ = fuzzTarget  // an unknown target ends the run before any input
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fuzzTarget(data, size) }
