// swift-tools-version:6.1
import Foundation
import PackageDescription

let package = Package(
    name: "TriggerBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TriggerKit", targets: ["TriggerKit"]),
        // For Benchmarks/ (package-benchmark micro-benchmarks replay generated workloads).
        .library(name: "Workload", targets: ["Workload"]),
        .executable(name: "bench", targets: ["bench"]),
        // For a matcher written in Swift: the plugin ABI as a protocol and one export line (docs/plugins.md).
        .library(name: "TriggerBenchPluginKit", targets: ["TriggerBenchPluginKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    ],
    targets: [
        // The embeddable engine: model, decoding, matchers, delivery. Needs only swift-atomics and the
        // system's RE2 (Debian libre2-dev), through CRE2.
        .target(name: "TriggerKit", dependencies: ["CPrefetch", "CRE2", .product(name: "Atomics", package: "swift-atomics")]),
        // RE2 (Debian libre2-dev) behind a C face: `regex` filters decided in linear time.
        .target(name: "CRE2", linkerSettings: [.linkedLibrary("re2")]),
        // Software prefetch for the replay hot path (Swift has no intrinsic for it).
        .target(name: "CPrefetch"),
        // Deterministic synthetic corpora and event streams, written into replay buffers.
        .target(name: "Workload", dependencies: ["TriggerKit"]),
        // Replay, explain and the measuring harness; uses TriggerKit's public API and its `package`
        // declarations (what the harness needs and an embedder does not).
        .target(
            name: "Harness",
            dependencies: [
                "Workload", "TriggerKit", "CCallgrind", "CSignals", "CCycleCounter", "CDigest", "CRE2",
                "CTriggerBenchPlugin", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // SHA-256 of the corpus and event-log files a run replays (results say which bytes they measured).
        .target(name: "CDigest"),
        // The C ABI of matcher plugins (docs/plugins.md): the header plugin authors build against.
        .target(name: "CTriggerBenchPlugin", path: "Plugins"),
        // Swift plugins: typed views of the ABI, a `TriggerMatcher` protocol and `exportPlugin`.
        .target(name: "TriggerBenchPluginKit", dependencies: ["CTriggerBenchPlugin"]),
        // The CPU's tick counter (rdtsc, cntvct_el0), for timing single events.
        .target(name: "CCycleCounter"),
        // Removes temporary output files when the process is interrupted; ignores SIGPIPE.
        .target(name: "CSignals"),
        // Start/stop requests for callgrind around the counted matching loop (no-ops outside valgrind).
        .target(name: "CCallgrind"),
        // jemalloc's header; only `bench` links the library (Harness finds mallctl at run time).
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // The executable: the commands (their options, checks and printing) over Harness.
        .executableTarget(
            name: "bench",
            dependencies: [
                "Harness", "TriggerKit", "CJemalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.linkedLibrary("jemalloc")]),
        .testTarget(name: "TriggerKitTests", dependencies: ["TriggerKit"]),
        // docs/plugins.md's reference of the Swift plugin kit, compiled.
        .testTarget(name: "PluginKitTests", dependencies: ["TriggerBenchPluginKit"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "TriggerKit", "Workload"]),
        .testTarget(name: "PublishingTests", dependencies: ["TriggerKit"]),
        .testTarget(name: "DifferentialTests", dependencies: ["Workload", "TriggerKit"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["Harness", "TriggerKit", "Workload"],
            path: "Tests/ConformanceTests"),
    ]
)

// The libFuzzer targets of every input decoder (Fuzz/), built only by scripts/fuzz
// (TRIGGER_BENCH_FUZZ=1 swift build --sanitize=fuzzer): libFuzzer supplies their main.
if ProcessInfo.processInfo.environment["TRIGGER_BENCH_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "DecoderFuzz", dependencies: ["Harness", "Workload", "TriggerKit"], path: "Fuzz"),
    ]
}
