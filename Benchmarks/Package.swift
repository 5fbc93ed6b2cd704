// swift-tools-version:6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which differs between checkouts.
let rootPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

// Micro-benchmarks with ordo-one/package-benchmark, kept apart from the main package as swift-nio does,
// so `swift build` / `swift test` of TriggerBench never compile the benchmark framework.
// Run: swift package --package-path Benchmarks benchmark
let package = Package(
    name: "TriggerBenchBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "MatcherBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TriggerKit", package: rootPackage),
                .product(name: "Workload", package: rootPackage),
            ],
            path: "Benchmarks/MatcherBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
