import Foundation

// One sanitized build holds the four decoder targets (building each alone cost a TriggerKit build
// apiece); TRIGGER_BENCH_FUZZ_TARGET, read once, says which one libFuzzer drives.
let fuzzTarget: (UnsafePointer<UInt8>, Int) -> CInt = {
    switch ProcessInfo.processInfo.environment["TRIGGER_BENCH_FUZZ_TARGET"] {
    case "corpus": return fuzzCorpusDecoder
    case "delta": return fuzzDeltaDecoder
    case "event": return fuzzEventDecoder
    case "payload": return fuzzPayloadDecoder
    case let other:
        FileHandle.standardError.write(Data("TRIGGER_BENCH_FUZZ_TARGET must be corpus, delta, event or payload (got \(other ?? "nothing"))\n".utf8))
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
