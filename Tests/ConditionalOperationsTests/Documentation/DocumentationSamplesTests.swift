import Foundation
import Testing

extension ConditionalOperationsTests {
    /// Every Swift sample of the documentation is compiled: each fenced code block whose info string
    /// is `swift`, in `README.md`, `Documentation/*.md` and the DocC catalogs
    /// (`Sources/*/*.docc/*.md`), and in the `///` doc comments of the sources of
    /// `ConditionalOperations`, `ConditionalOperationsNetworking` and `ConditionalOperationsTesting` (twinned in
    /// `SymbolSamples*Tests.swift`), must have a twin, a Swift file of this folder (or
    /// `Diagnostics/DiagnosticsGuideTests.swift`) that holds its lines in order and contiguously,
    /// leading indentation and blank lines aside, with the stubs the sample needs around it. The twins
    /// are compiled by `swift build`/`swift test` and run where the sample can run.
    ///
    /// Rules for the documentation:
    /// - A block's `import` lines (at its start) must be in the twin, apart from the rest.
    /// - A comment line starting with `// …` stands for code left out: after it, the twin may have
    ///   any lines before the block's next line.
    /// - Swift that cannot be compiled in a test target is not tagged `swift`: a `Package.swift`
    ///   excerpt is `swift-package`, output is `text`, commands are `sh`.
    /// - Samples are formatted as `swift format` formats their twin (two spaces before a comment
    ///   at the end of a line, no semicolons).
    @Suite struct DocumentationSamplesTests {
        /// Guides whose samples are not compiled yet, and only these.
        static let notYetCompiled: Set<String> = []

        /// Source files whose doc-comment samples are not compiled yet, and only these: each is to
        /// get its twins in a `SymbolSamples*Tests.swift` file of this folder, then leave this set.
        static let docCommentsNotYetCompiled: Set<String> = []

        struct Block: CustomStringConvertible {
            let file: String
            let line: Int
            let lines: [String]

            var description: String { "\(file):\(line): \(lines.first ?? "")" }
        }

        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()

        static func files(in folder: String, endingWith suffix: String) -> [String] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(suffix) }.sorted().map { folder + "/" + $0 }
        }

        static var markdownFiles: [String] {
            let catalogs = files(in: "Sources", endingWith: "").flatMap { module in
                files(in: module, endingWith: ".docc").flatMap { files(in: $0, endingWith: ".md") }
            }
            return ["README.md"] + files(in: "Documentation", endingWith: ".md") + catalogs
        }

        static var twinFiles: [String] {
            files(in: "Tests/ConditionalOperationsTests/Documentation", endingWith: ".swift")
                + ["Tests/ConditionalOperationsTests/Diagnostics/DiagnosticsGuideTests.swift"]
        }

        static func read(_ file: String) throws -> [String] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            return text.components(separatedBy: "\n")
        }

        /// The lines with their leading and trailing white space removed, blank lines left out.
        static func normalized(_ lines: some Sequence<String>) -> [String] {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        /// The fenced blocks of `file` whose info string is `swift`.
        static func swiftBlocks(of file: String) throws -> [Block] {
            let lines = try read(file)
            var blocks: [Block] = []
            var index = 0
            while index < lines.count {
                let fence = lines[index].trimmingCharacters(in: .whitespaces)
                guard fence.hasPrefix("```") else {
                    index += 1
                    continue
                }
                let info = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
                var end = index + 1
                while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                    end += 1
                }
                if info == "swift" {
                    blocks.append(
                        Block(file: file, line: index + 1, lines: normalized(lines[index + 1..<end])))
                }
                index = end + 1
            }
            return blocks
        }

        /// Whether `line` belongs to the imports at a block's start: `import X`, or the
        /// `#if canImport(X)` and `#endif` around one.
        static func isImport(_ line: String) -> Bool {
            line.hasPrefix("import ") || line.hasPrefix("@testable import ")
                || line.hasPrefix("#if canImport(")
                || line == "#endif"
        }

        /// Where `needle` is, contiguous, in `haystack` at or after `start`.
        static func firstIndex(of needle: ArraySlice<String>, in haystack: [String], from start: Int) -> Int?
        {
            guard !needle.isEmpty else { return start }
            var index = start
            while index + needle.count <= haystack.count {
                if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }

        /// Whether `twin` holds `block`: its imports, and the rest in order, contiguous but after a
        /// `// …` line.
        static func twin(_ twin: [String], holds block: [String]) -> Bool {
            let imports = block.prefix(while: isImport)
            guard imports.allSatisfy(twin.contains) else { return false }
            var segments: [ArraySlice<String>] = []
            var rest = block.dropFirst(imports.count)
            while let elision = rest.firstIndex(where: { $0.hasPrefix("// …") }) {
                segments.append(rest[..<(elision + 1)])
                rest = rest[(elision + 1)...]
            }
            segments.append(rest)
            var start = 0
            while let found = firstIndex(of: segments[0], in: twin, from: start) {
                var next = found + segments[0].count
                var matched = true
                for segment in segments.dropFirst() {
                    guard let at = firstIndex(of: segment, in: twin, from: next) else {
                        matched = false
                        break
                    }
                    next = at + segment.count
                }
                if matched { return true }
                start = found + 1
            }
            return false
        }

        @Test func everySwiftSampleHasACompiledTwin() throws {
            let twins = try Self.twinFiles.map { try Self.normalized(Self.read($0)) }
            #expect(twins.count >= 3, "the twins were not found from \(Self.root.path)")
            var checked = 0
            for file in Self.markdownFiles
            where Self.programs[file] == nil && !Self.notYetCompiled.contains(file) {
                for block in try Self.swiftBlocks(of: file) {
                    checked += 1
                    let lines =
                        Self.isInsideMarker(block.lines.first ?? "")
                        ? Array(block.lines.dropFirst()) : block.lines
                    #expect(
                        twins.contains { Self.twin($0, holds: lines) },
                        "no twin in Tests/ConditionalOperationsTests/Documentation for \(block)")
                }
            }
            #expect(checked >= 50, "only \(checked) Swift samples found from \(Self.root.path)")
        }

        // MARK: Top-level code

        /// Documents whose samples, in order, are one program a reader pastes into a `main.swift`:
        /// an executable target's, which `swift build` compiles as top-level code, holds them and
        /// nothing else (its leading comment lines aside).
        static let programs = [
            "README.md": "Sources/ReadmeProgram/main.swift",
            "Sources/ConditionalOperations/ConditionalOperations.docc/RunningInAServer.md":
                "Sources/ServerExample/main.swift",
            "Sources/ConditionalOperations/ConditionalOperations.docc/FetchFanOutSave.md":
                "Sources/SyncExample/main.swift",
        ]

        @Test(arguments: programs.keys.sorted())
        func theSamplesAreOneTopLevelProgram(document: String) throws {
            let source = try #require(Self.programs[document])
            let samples = try Self.swiftBlocks(of: document).flatMap(\.lines)
            let program = Array(try Self.normalized(Self.read(source)).drop { $0.hasPrefix("//") })
            #expect(samples.count > 20, "the samples of \(document) were not found")
            let firstDifference =
                zip(samples, program).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(samples.count, program.count)
            #expect(
                samples == program,
                """
                \(document)'s Swift blocks, in order, differ from \(source) at the samples' \
                line \(firstDifference): \(samples.dropFirst(firstDifference).first ?? "(none)")
                """)
        }

        /// Whether `line` says the sample belongs inside a function: `// Inside a function:`,
        /// `// Inside an async function:`, `// Inside a test:`, … It is for the reader: the twin wraps
        /// the rest in such a function.
        static func isInsideMarker(_ line: String) -> Bool {
            line.hasPrefix("// Inside ") && line.hasSuffix(":")
        }

        /// The lines of `block` that are statements at its top level: not a declaration, an import,
        /// a comment or a line inside braces, parentheses or brackets. Such code means something
        /// else at the top level of a `main.swift` (variables isolated to the main actor, `await`
        /// choosing another overload) than inside a function.
        static func topLevelStatements(_ block: [String]) -> [String] {
            let declarations = [
                "@", "import ", "#if", "#else", "#endif", "//", "final ", "class ", "struct ", "enum ",
                "extension ", "protocol ", "func ", "public ", "private ", "fileprivate ", "internal ",
                "open ", "actor ", "typealias ", "override ", "nonisolated ", "static ", "}", ")", "]",
            ]
            var depth = 0
            var statements: [String] = []
            for line in block {
                if depth == 0, !declarations.contains(where: line.hasPrefix) { statements.append(line) }
                for character in line {
                    switch character {
                    case "{", "(", "[": depth += 1
                    case "}", ")", "]": depth -= 1
                    default: break
                    }
                }
            }
            return statements
        }

        /// Outside the programs' documents, a sample with statements says where they go: its first line is a
        /// marker (``isInsideMarker(_:)``), since its twin runs it inside a function.
        @Test func aSampleWithStatementsSaysItBelongsInsideAFunction() throws {
            var marked = 0
            for file in Self.markdownFiles where Self.programs[file] == nil {
                for block in try Self.swiftBlocks(of: file)
                where !Self.topLevelStatements(block.lines).isEmpty {
                    let isMarked = Self.isInsideMarker(block.lines.first ?? "")
                    marked += isMarked ? 1 : 0
                    #expect(
                        isMarked,
                        """
                        \(block): top-level statements in a guide's sample; begin it with \
                        `// Inside an async function:` (or `// Inside a function:`)
                        """)
                }
            }
            #expect(marked >= 30, "only \(marked) samples with statements found")
        }

        @Test func theTopLevelStatementRules() {
            #expect(Self.topLevelStatements(["final class A {", "let a = 1", "}"]).isEmpty)
            #expect(Self.topLevelStatements(["import Foundation", "// …", "func f() {}"]).isEmpty)
            #expect(Self.topLevelStatements(["let a = A()", "a.go(", "b)"]) == ["let a = A()", "a.go("])
            #expect(Self.isInsideMarker("// Inside an async function:"))
            #expect(!Self.isInsideMarker("// inside"))
        }

        /// The modules whose doc comments' samples are compiled.
        static let documentedModules = [
            "Sources/ConditionalOperations", "Sources/ConditionalOperationsNetworking",
            "Sources/ConditionalOperationsTesting",
        ]

        /// The Swift files of `folder` and of its subfolders.
        static func swiftFiles(under folder: String) -> [String] {
            let url = root.appendingPathComponent(folder)
            let paths = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
            return paths.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
        }

        static var documentedSourceFiles: [String] { documentedModules.flatMap(swiftFiles(under:)) }

        /// The fenced blocks whose info string is `swift` in the `///` doc comments of `file`: a
        /// comment line is the text after `///` and one space, and a block ends at its closing
        /// fence or with the comment.
        static func docCommentSwiftBlocks(of file: String) throws -> [Block] {
            let lines = try read(file)
            func comment(_ index: Int) -> String? {
                let line = lines[index].trimmingCharacters(in: .whitespaces)
                guard line.hasPrefix("///") else { return nil }
                let text = line.dropFirst(3)
                return String(text.hasPrefix(" ") ? text.dropFirst() : text)
            }
            var blocks: [Block] = []
            var index = 0
            while index < lines.count {
                guard let fence = comment(index)?.trimmingCharacters(in: .whitespaces), fence.hasPrefix("```")
                else {
                    index += 1
                    continue
                }
                let info = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
                var body: [String] = []
                var end = index + 1
                while end < lines.count, let text = comment(end),
                    text.trimmingCharacters(in: .whitespaces) != "```"
                {
                    body.append(text)
                    end += 1
                }
                if info == "swift" {
                    blocks.append(Block(file: file, line: index + 1, lines: normalized(body)))
                }
                index = end + 1
            }
            return blocks
        }

        @Test func everyDocCommentSwiftSampleHasACompiledTwin() throws {
            let twins = try Self.twinFiles.map { try Self.normalized(Self.read($0)) }
            var checked = 0
            var skipped = 0
            for file in Self.documentedSourceFiles {
                let blocks = try Self.docCommentSwiftBlocks(of: file)
                guard !Self.docCommentsNotYetCompiled.contains(file) else {
                    skipped += blocks.count
                    continue
                }
                for block in blocks {
                    checked += 1
                    #expect(
                        twins.contains { Self.twin($0, holds: block.lines) },
                        "no twin in Tests/ConditionalOperationsTests/Documentation for \(block)")
                }
            }
            #expect(checked + skipped >= 60, "only \(checked + skipped) doc-comment samples found")
        }

        @Test func theExemptSourceFilesExistAndHaveSamples() throws {
            for file in Self.docCommentsNotYetCompiled {
                #expect(Self.documentedSourceFiles.contains(file), "\(file) is exempt but no longer there")
                if Self.documentedSourceFiles.contains(file) {
                    #expect(try !Self.docCommentSwiftBlocks(of: file).isEmpty, "\(file) has no Swift sample")
                }
            }
        }

        @Test func theDocCommentExtraction() throws {
            let blocks = try Self.docCommentSwiftBlocks(
                of: "Sources/ConditionalOperations/Composition/DelayOperation.swift")
            #expect(blocks.count == 1)
            #expect(
                blocks.first?.lines == [
                    "let pause = DelayOperation(interval: .seconds(2))", "retry.addDependency(pause)",
                ])
        }

        @Test func theExemptGuidesExist() {
            for file in Self.notYetCompiled {
                #expect(Self.markdownFiles.contains(file), "\(file) is exempt but no longer there")
            }
        }

        @Test func theMatchingRules() {
            let twin = ["import Foundation", "let a = 1", "// … run it …", "run()", "#expect(a == 1)"]
            #expect(Self.twin(twin, holds: ["import Foundation", "let a = 1"]))
            #expect(Self.twin(twin, holds: ["let a = 1", "// … run it …", "#expect(a == 1)"]))
            #expect(!Self.twin(twin, holds: ["let a = 1", "#expect(a == 1)"]))
            #expect(!Self.twin(twin, holds: ["import Testing", "let a = 1"]))
        }
    }
}
