import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// A readiness announcement repeats only for a `false` answer that may be stored stale, never
    /// because `isReady` is read more often: an observer may read it several times per
    /// notification (Apple's KVO does, for `.prior` and `.old` observers), anyone may read it in a
    /// loop, and nothing may spin or overflow for it.
    @Suite(.serialized) struct ReadinessAnnouncementTests {
        /// Counts its readiness announcements, and reads `isReady` `readsPerNotification` times at
        /// each `willChangeValue` and `didChangeValue`, as KVO observers do. It stops reading after
        /// ``limit`` announcements, so that a repeating announcement ends.
        final class CountingOperation: ConditionalOperation, @unchecked Sendable {  // state: Counter
            static let limit = 1_000
            let readsPerNotification: Int
            let announcements = Counter()

            init(readsPerNotification: Int = 0) {
                self.readsPerNotification = readsPerNotification
                super.init()
            }

            override func willChange(_ property: ObservedProperty) {
                if property == .isReady { read() }
                super.willChange(property)
            }

            override func didChange(_ property: ObservedProperty) {
                super.didChange(property)
                guard property == .isReady else { return }
                announcements.increment()
                read()
            }

            private func read() {
                guard announcements.current < Self.limit else { return }
                for _ in 0..<readsPerNotification { _ = isReady }
            }
        }

        /// The most announcements one readiness may cost: the first, and one per `false` answer
        /// that may be stored stale.
        static let bound = 1 + Int(ReadinessAnnouncements.staleAnswerLimit)

        /// Waits `seconds` without holding a thread.
        static func pause(_ seconds: Double) async {
            let tick = Latch()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { tick.countDown() }
            _ = await tick.wait()
        }

        /// A ready operation with one condition, on a suspended plain queue (it stays ready and not
        /// started), whose `isReady` two threads read in a loop once the condition answered. Before,
        /// every announcement that met another read was repeated, as long as the reads went on,
        /// and the count of reads during one overflowed ("arithmetic overflow", about one run in
        /// three of 30 rounds of half a second).
        @Test func readsInALoopNeverMakeTheAnnouncementRepeat() async throws {
            for _ in 0..<10 {
                let queue = OperationQueue()
                queue.isSuspended = true
                let condition = ManualCondition()
                let operation = CountingOperation()
                operation.addCondition(condition)
                queue.addOperation(operation)
                try await condition.waitUntilEvaluated(timeout: .seconds(10))
                let reading = Locked(true)
                let readers = Latch(count: 2)
                for _ in 0..<2 {
                    Thread.detachNewThread {
                        while reading.withLock({ $0 }) { _ = operation.isReady }
                        readers.countDown()
                    }
                }
                condition.answer(.satisfied)
                await Self.pause(0.1)
                reading.withLock { $0 = false }
                #expect(await readers.wait())
                await Self.pause(0.01)  // a re-announcement dispatched by the last reads
                let announced = operation.announcements.current
                #expect(announced >= 1 && announced <= Self.bound, "\(announced) announcements")
                queue.isSuspended = false
                try await operation.untilFinished(timeout: .seconds(10))
            }
        }

        /// An observer that reads `isReady` several times per notification, as Apple's KVO does,
        /// costs no more announcements. Before, each announcement read more than once was
        /// repeated while the operation waited: the announcing thread spun.
        @Test(arguments: [2, 5]) func severalReadsPerNotificationNeverMakeTheAnnouncementRepeat(
            reads: Int
        ) async throws {
            let queue = OperationQueue()
            queue.isSuspended = true
            let condition = ManualCondition()
            let operation = CountingOperation(readsPerNotification: reads)
            operation.addCondition(condition)
            queue.addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(10))
            condition.answer(.satisfied)
            await Self.pause(0.05)
            let announced = operation.announcements.current
            #expect(announced >= 1 && announced <= Self.bound, "\(announced) announcements")
            queue.isSuspended = false
            try await operation.untilFinished(timeout: .seconds(10))
        }
    }
}
