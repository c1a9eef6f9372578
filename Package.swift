// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ConditionalOperations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ConditionalOperations", targets: ["ConditionalOperations"])
    ],
    targets: [
        .target(name: "ConditionalOperations"),
        .executableTarget(name: "WordCountExample", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "ConcurrencyExample", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "Benchmarks", dependencies: ["ConditionalOperations"]),
        .testTarget(name: "ConditionalOperationsTests", dependencies: ["ConditionalOperations"]),
    ],
    swiftLanguageModes: [.v6]
)
