// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ConditionalOperations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ConditionalOperations", targets: ["ConditionalOperations"]),
        // The HTTP operation, `DataTaskOperation`. Its own product: on Linux `URLSession` is in
        // FoundationNetworking, which links libcurl, and a program using the core alone links
        // statically (`--static-swift-stdlib`) only without it.
        .library(name: "ConditionalOperationsNetworking", targets: ["ConditionalOperationsNetworking"]),
        // For test targets: a condition answered by hand, waits with a time bound, a recording observer.
        .library(name: "ConditionalOperationsTesting", targets: ["ConditionalOperationsTesting"]),
    ],
    targets: [
        // The value-type state machines, in a module of their own so that the compiler keeps their
        // state theirs: their events and actions are reachable from the package (`package`, or
        // `public` and `@inlinable` for the operation's machine, which the library's module runs
        // specialised), their state written only here. Internal to the package: not a product.
        .target(name: "ConditionalOperationsMachines"),
        .target(name: "ConditionalOperations", dependencies: ["ConditionalOperationsMachines"]),
        .target(name: "ConditionalOperationsNetworking", dependencies: ["ConditionalOperations"]),
        .target(name: "ConditionalOperationsTesting", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "WordCountExample", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "ConcurrencyExample", dependencies: ["ConditionalOperations"]),
        // The README's samples as one top-level program, compiled as a reader pastes them.
        .executableTarget(name: "ReadmeProgram", dependencies: ["ConditionalOperations"]),
        // The program of the article "Running operations in a server": SIGTERM, shutdown, task-locals.
        .executableTarget(name: "ServerExample", dependencies: ["ConditionalOperations"]),
        // The program of the article "Fetch a list, fan out, save exclusively": retries in a
        // bounded group, a rate limit and an exclusive category together.
        .executableTarget(name: "SyncExample", dependencies: ["ConditionalOperations"]),
        .executableTarget(name: "Benchmarks", dependencies: ["ConditionalOperations"]),
        .testTarget(
            name: "ConditionalOperationsTests",
            dependencies: [
                "ConditionalOperations", "ConditionalOperationsMachines", "ConditionalOperationsNetworking",
                "ConditionalOperationsTesting",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
