import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The samples of the `ConditionalOperations` DocC catalog's landing page
    /// (`ConditionalOperations.md`) and `GettingStarted.md`, verbatim, run (checked by
    /// `DocumentationSamplesTests`; the migration articles' are `MigrationSamplesTests`).
    @Suite struct CatalogSamplesTests {
        func greet() async -> ConditionalOperation {
            final class GreetOperation: ConditionalOperation, @unchecked Sendable {
                let who: String
                init(who: String) {
                    self.who = who
                    super.init()
                }
                override func execute() {
                    print("Hello, \(who)!")
                    finish()
                }
            }

            // In an async function; its body works as top-level code (a main.swift) too.
            func greetTheWorld() async {
                let who = "world"
                let greet = GreetOperation(who: who)
                greet.addCondition(BlockCondition(name: "has a name") { !who.isEmpty })
                greet.addObserver(BlockObserver(didFinish: { _, errors in print("finished", errors) }))
                OperationQueue().addOperation(greet)
                await greet.untilFinished()
            }

            await greetTheWorld()
            let greet = GreetOperation(who: "again")
            OperationQueue().addOperation(greet)
            await greet.untilFinished()
            return greet
        }

        final class ChecksumOperation: ConditionalOperation, @unchecked Sendable {
            let file: URL  // immutable
            private let lock = NSLock()
            private var result: UInt32?  // mutable, only under `lock`

            var checksum: UInt32? { lock.withLock { result } }

            init(file: URL) {
                self.file = file
                super.init()
            }

            override func execute() {
                DispatchQueue.global().async {
                    do {
                        let data = try Data(contentsOf: self.file)
                        guard !self.isCancelled else { return self.finish() }
                        let sum = data.reduce(UInt32(0)) { ($0 &* 31) &+ UInt32($1) }
                        self.lock.withLock { self.result = sum }
                        self.finish()
                    } catch {
                        self.finish(error: error)
                    }
                }
            }
        }

        func checksum(of url: URL) async -> ChecksumOperation {
            let checksum = ChecksumOperation(file: url)
            checksum.addCondition(
                BlockCondition(name: "file exists") {
                    FileManager.default.fileExists(atPath: url.path)
                })
            checksum.addCondition(
                NegatedCondition(BlockCondition(name: "is a folder") { url.hasDirectoryPath }))

            checksum.addObserver(
                BlockObserver(
                    didStart: { op in print("start", op.name ?? "") },
                    didCancel: { op, errors in print("cancel", errors) },
                    didFinish: { op, errors in print("finish", errors) }))

            let queue = OperationQueue()
            queue.addOperation(checksum)
            await checksum.untilFinished()
            return checksum
        }

        @Test func theLandingPageGreets() async {
            let greet = await greet()
            #expect(greet.isFinished && greet.errors.isEmpty)
        }

        @Test func gettingStartedChecksumsAFile() async throws {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("samples-checksum-\(UUID().uuidString)")
            try Data([1, 2, 3]).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let checksum = await checksum(of: url)
            #expect(checksum.errors.isEmpty)
            #expect(checksum.checksum == 1026)  // (1 × 31 + 2) × 31 + 3
        }

        @Test func gettingStartedFailsForAMissingFile() async {
            let checksum = await checksum(of: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
            #expect(checksum.checksum == nil)
            #expect(checksum.errors.map { String(describing: $0) } == ["condition 'file exists' failed"])
        }
    }
}
