// swift-tools-version:6.1
// An example matcher plugin in Swift: `build-plugin "$TRIGGERBENCH/Examples/Plugins/swift-linear-scan"`
// builds it and prints the library's path. A copy outside this repository names the TriggerBench
// checkout by its path (TriggerBench publishes no release tags to depend on by version):
//   dependencies: [.package(name: "TriggerBench", path: "/path/to/your/TriggerBench")],
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
