// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ConditionalOperations",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ConditionalOperations", targets: ["ConditionalOperations"])
    ],
    targets: [
        .target(name: "ConditionalOperations"),
        .executableTarget(name: "WordCountExample", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "Benchmarks", dependencies: ["ConditionalOperations"]),
        .testTarget(name: "ConditionalOperationsTests", dependencies: ["ConditionalOperations"]),
    ],
    swiftLanguageModes: [.v6]
)
