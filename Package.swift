// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "TriggerBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TriggerKit", targets: ["TriggerKit"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The embeddable engine: model, decoding, matchers, delivery. No dependency of ours.
        .target(name: "TriggerKit"),
        // Deterministic synthetic corpora and event streams, written into replay buffers.
        .target(name: "Workload", dependencies: ["TriggerKit"]),
        // Replay, explain and the measuring harness; knows TriggerKit's public API only.
        .target(name: "Harness", dependencies: ["Workload", "TriggerKit"]),
        // The executable: argument parsing only.
        .executableTarget(
            name: "bench",
            dependencies: [
                "Harness", "TriggerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "TriggerKitTests", dependencies: ["TriggerKit"]),
        .testTarget(name: "DifferentialTests", dependencies: ["Workload", "TriggerKit"]),
        .testTarget(
            name: "ConformanceTests", dependencies: ["Harness", "TriggerKit"],
            path: "Tests/ConformanceTests"),
    ]
)
