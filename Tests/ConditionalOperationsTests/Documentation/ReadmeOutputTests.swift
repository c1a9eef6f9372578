import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The README's "Try it" shows what `swift run WordCountExample` prints: this runs the example
    /// that `swift test` built beside the tests and compares, the README's `…` lines standing for
    /// any lines, and numbers and times (which follow `Sources/` and the machine) aside.
    @Suite struct ReadmeOutputTests {
        /// The README's `text` block after "It prints this".
        static func readmeOutput() throws -> [String] {
            let lines = try DocumentationSamplesTests.read("README.md")
            guard let intro = lines.firstIndex(where: { $0.contains("It prints this") }),
                let open = lines[intro...].firstIndex(of: "```text"),
                let close = lines[(open + 1)...].firstIndex(of: "```")
            else { return [] }
            return Array(lines[(open + 1)..<close])
        }

        /// A program that `swift test` built into the folder of the tests.
        static func builtProgram(_ name: String) -> URL? {
            var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
            folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
            return folders.map { $0.appendingPathComponent(name) }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }

        /// A line with its numbers (counts, times) made `#`, its trailing spaces dropped and the
        /// spaces between its words made one.
        static func shape(_ line: String) -> String {
            var shaped = ""
            var inNumber = false
            for character in line {
                let isNumeric = character.isNumber || inNumber && character == "."
                if isNumeric {
                    if !inNumber { shaped.append("#") }
                } else {
                    shaped.append(character)
                }
                inNumber = isNumeric
            }
            return shaped.replacingOccurrences(
                of: #"\[ *\+# ms\]"#, with: "[+# ms]", options: .regularExpression
            )
            .replacingOccurrences(of: #"(?<=\S) {2,}"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            // Column widths follow the numbers too (a total of six digits widens the table).
            .replacingOccurrences(of: #"(?<=\S) {2,}"#, with: " ", options: .regularExpression)
        }

        /// Whether `output` matches `expected`, where a line that is only `…` matches any lines.
        static func matches(_ output: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
            guard let first = expected.first else { return output.isEmpty }
            if first.trimmingCharacters(in: .whitespaces) == "…" {
                return output.indices.map { output[$0...] }.contains { matches($0, expected.dropFirst()) }
                    || matches(output[output.endIndex...], expected.dropFirst())
            }
            guard let line = output.first, shape(line) == shape(first) else { return false }
            return matches(output.dropFirst(), expected.dropFirst())
        }

        #if os(macOS) || os(Linux) || os(Windows)  // it runs the example: no processes on iOS
            @Test func theReadmeShowsWhatWordCountExamplePrints() throws {
                let expected = try Self.readmeOutput()
                #expect(expected.count > 30, "the README's output block was not found")
                guard let program = Self.builtProgram("WordCountExample") else {
                    Issue.record("WordCountExample was not built beside the tests (swift test builds it)")
                    return
                }
                let process = Process()
                process.executableURL = program
                process.currentDirectoryURL = DocumentationSamplesTests.root
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                let output = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
                let trimmed = output.last == "" ? output.dropLast() : output[...]
                #expect(
                    Self.matches(trimmed, expected[...]),
                    "README.md's output of WordCountExample differs from a run:\n\(trimmed.joined(separator: "\n"))"
                )
            }
        #endif

        @Test func theOutputMatchingRules() {
            #expect(Self.shape("  [  +13.3 ms] count: didStart") == "  [+# ms] count: didStart")
            #expect(Self.shape("Counting 153 files, 6909 words") == Self.shape("Counting 166 files, 1 words"))
            #expect(Self.shape("   #  words   lines  file") == Self.shape("   #   words   lines  file"))
            #expect(Self.matches(["a", "b", "c"], ["a", "…", "c"]))
            #expect(Self.matches(["a", "c"], ["a", "…", "c"]))
            #expect(!Self.matches(["a", "b"], ["a", "c"]))
            #expect(!Self.matches(["a", "b", "d"], ["a", "…", "c"]))
        }
    }
}
