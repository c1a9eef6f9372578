import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The package builds with Swift 6.1, as `Package.swift` and the README say: no source of the
    /// package uses a language feature that arrived later. Only a newer compiler is installed where
    /// the suite usually runs, so this reads the sources; the hosted workflow builds on 6.1 itself.
    @Suite struct SwiftMinimumTests {
        /// Each feature newer than Swift 6.1 with the version that brought it, spelled in pieces so
        /// that this file does not match itself.
        static let newerFeatures: [(pattern: String, since: String)] = [
            ("weak" + " let ", "6.3"),
            ("nonisolated" + "(nonsending)", "6.2"),
            ("@" + "concurrent ", "6.2"),
            ("Inline" + "Array<", "6.2"),
            ("Mutable" + "Span", "6.2"),
            ("isolated" + " deinit", "6.2"),
            ("Task" + ".immediate", "6.2"),
        ]

        @Test func everySourceCompilesWithSwift6_1() throws {
            let root = DocumentationSamplesTests.root
            var files = 0
            var findings: [String] = []
            for folder in ["Sources", "Tests"] {
                for file in DocumentationSamplesTests.swiftFiles(under: folder) {
                    files += 1
                    let lines = try DocumentationSamplesTests.read(file)
                    for (number, line) in lines.enumerated() {
                        for feature in Self.newerFeatures where line.contains(feature.pattern) {
                            findings.append(
                                "\(file):\(number + 1): '\(feature.pattern)' needs Swift \(feature.since)")
                        }
                    }
                }
            }
            #expect(files > 100, "the sources were not found from \(root.path)")
            #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
        }

        @Test func packageSwiftAsksForSwift6_1() throws {
            let manifest = try DocumentationSamplesTests.read("Package.swift")
            #expect(manifest.first == "// swift-tools-version: 6.1")
        }
    }
}
