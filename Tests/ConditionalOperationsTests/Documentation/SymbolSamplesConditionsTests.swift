// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Conditions,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private final class QuickOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

private final class SyncOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

private actor Session {
    var isSignedIn = true
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesConditionsTests {
        // MutuallyExclusive
        @Test func mutuallyExclusiveOperations() async throws {
            let alert = QuickOperation()
            let sync = SyncOperation()
            let upload = QuickOperation()
            alert.addCondition(MutuallyExclusive(category: "alert"))
            sync.addCondition(MutuallyExclusive(SyncOperation.self))
            upload.addCondition(MutuallyExclusive(category: "uploads", limit: 3))  // at most 3 at once
            let queue = OperationQueue()
            for operation in [alert, sync, upload] { queue.addOperation(operation) }
            try await alert.untilFinished(timeout: .seconds(5))
            try await sync.untilFinished(timeout: .seconds(5))
            try await upload.untilFinished(timeout: .seconds(5))
        }

        // AllOf
        @Test func allOfTwoConditions() async throws {
            let signedIn = BlockCondition(name: "signed in") { true }
            let online = BlockCondition(name: "online") { true }
            let upload = QuickOperation()
            upload.addCondition(AllOf([signedIn, online]))
            upload.addCondition(signedIn && online)  // the same
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
        }

        // AnyOf
        @Test func anyOfTwoConditions() async throws {
            let onWiFi = BlockCondition(name: "on Wi-Fi") { false }
            let userAllowsCellular = BlockCondition(name: "cellular allowed") { true }
            let download = QuickOperation()
            download.addCondition(AnyOf([onWiFi, userAllowsCellular]))
            download.addCondition(onWiFi || userAllowsCellular)  // the same
            OperationQueue().addOperation(download)
            try await download.untilFinished(timeout: .seconds(5))
            #expect(download.errors.isEmpty)
        }

        // SkippingCondition
        @Test func aSkippingCondition() async throws {
            let changes: [String] = []
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            upload.addCondition(SkippingCondition(BlockCondition(name: "has changes") { !changes.isEmpty }))
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.isSkipped && upload.errors.isEmpty)
        }

        // MutuallyExclusive.init(category:limit:)
        @Test func aCategoryWithALimit() async throws {
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            upload.addCondition(MutuallyExclusive(category: "uploads", limit: 3))
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
            await expectVoidValue(upload)
        }

        // RateLimit
        @Test func aRateLimit() async throws {
            let fetch = ClosureOperation<Void>(name: "fetch") { $0.finish() }
            fetch.addCondition(RateLimit("api", permits: 10, per: .seconds(1)))  // 10 a second at most
            OperationQueue().addOperation(fetch)
            try await fetch.untilFinished(timeout: .seconds(5))
            #expect(fetch.errors.isEmpty)
        }

        // ExclusivityCategory
        @Test func aCategoryAsAValue() async throws {
            let uploads = ExclusivityCategory("uploads", limit: 3)  // one object for every upload
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            upload.addCondition(MutuallyExclusive(uploads))  // at most 3 at once
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
            await expectVoidValue(upload)
        }

        // MutuallyExclusive.init(_:)
        @Test func mutuallyExclusiveWithACategoryValue() async throws {
            let reports = ExclusivityCategory("reports")
            let export = ClosureOperation<Void>(name: "export") { $0.finish() }
            export.addCondition(MutuallyExclusive(reports))
            OperationQueue().addOperation(export)
            try await export.untilFinished(timeout: .seconds(5))
            #expect(export.errors.isEmpty)
            await expectVoidValue(export)
        }

        // AsyncCondition
        @Test func anAsyncCondition() async throws {
            let upload = QuickOperation()
            let session = Session()
            upload.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
        }
    }
}
