// swift-tools-version:6.1
// An example matcher plugin in Swift: `scripts/build-plugin Examples/Plugins/swift-linear-scan` builds
// it and prints the library's path. Outside this repository, depend on the kit by URL instead:
//   .package(url: "https://github.com/OWNER/TriggerBench", from: "…")
import PackageDescription

let package = Package(
    name: "SwiftLinearScan",
    products: [
        // One plugin per dynamic library: each exports its own `trigger_bench_plugin`.
        .library(name: "SwiftLinearScan", type: .dynamic, targets: ["SwiftLinearScan"]),
    ],
    dependencies: [.package(name: "TriggerBench", path: "../../..")],
    targets: [
        .target(name: "SwiftLinearScan", dependencies: [.product(name: "TriggerBenchPluginKit", package: "TriggerBench")]),
    ]
)
