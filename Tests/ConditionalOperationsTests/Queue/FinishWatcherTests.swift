import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// What tells a `ConditionalOperationQueue` (its idle waits, its shutdown, its limits) that a
    /// plain operation finished: one mechanism on every platform, a dependent that Foundation asks
    /// `isReady` once the operation finished.
    @Suite struct FinishWatcherTests {
        @Test func itFiresOnceWhenTheOperationFinishes() async {
            let queue = OperationQueue()
            queue.isSuspended = true
            let operation = BlockOperation {}
            let fired = Counter()
            let done = Latch()
            FinishWatcher(watching: operation) {
                fired.increment()
                done.countDown()
            }
            queue.addOperation(operation)
            #expect(fired.current == 0, "not before it finished")
            queue.isSuspended = false
            #expect(await done.wait())
            await waitUntil { queue.operationCount == 0 }
            #expect(fired.current == 1)
        }

        @Test func itFiresAtOnceForAnOperationThatFinishedAlready() {
            let operation = BlockOperation {}
            operation.start()
            let fired = Counter()
            FinishWatcher(watching: operation) { fired.increment() }
            #expect(fired.current == 1)
        }

        /// A conditional operation posts "isFinished", the key Foundation listens to, not the
        /// Objective-C name of Swift's `\.isFinished` key path ("finished").
        @Test func itFiresForAConditionalOperation() async throws {
            let operation = ConditionalOperation()
            let done = Latch()
            FinishWatcher(watching: operation) { done.countDown() }
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
        }

        /// Watching an operation while it finishes on another thread: the watcher fires exactly
        /// once, whichever comes first, and is let go of afterwards.
        @Test func itFiresExactlyOnceWhenTheOperationFinishesWhileItIsMade() async {
            let rounds = 2_000
            let fired = Counter()
            let done = Latch(count: rounds)
            let released = Counter()
            for _ in 0..<rounds {
                let operation = BlockOperation {}
                let go = Latch()
                DispatchQueue.global().async {
                    operation.start()
                    go.countDown()
                }
                weak var watcher: FinishWatcher?
                do {
                    let made = FinishWatcher(watching: operation) {
                        fired.increment()
                        done.countDown()
                    }
                    watcher = made
                }
                _ = await go.wait()
                await waitUntil { watcher == nil }
                if watcher == nil { released.increment() }
            }
            #expect(await done.wait())
            #expect(fired.current == rounds)
            #expect(released.current == rounds, "a fired watcher holds itself no longer")
        }

        /// An operation that answers `isFinished` without telling Foundation: nothing but the
        /// watcher's observation path can learn it finished.
        final class SilentlyFinishing: Foundation.Operation, @unchecked Sendable {  // state: `flag`'s lock
            private let flag = Locked(false)
            override var isFinished: Bool { flag.withLock { $0 } }
            func finishSilently() { flag.withLock { $0 = true } }
        }

        /// Apple's path: the observation of `isFinished` (called here as KVO calls it) fires the
        /// watcher once; it takes itself out of the operation's dependents before it lets go of
        /// itself, so that the operation's own walk over them, which follows, finds nothing freed.
        @Test func fromItsObservationItFiresOnceAndLeavesTheDependentsBeforeItIsLetGoOf() async {
            let operation = SilentlyFinishing()
            let fired = Counter()
            weak var released: FinishWatcher?
            do {
                let watcher = FinishWatcher(watching: operation) { fired.increment() }
                released = watcher
                watcher.observedFinish(of: operation)
                #expect(fired.current == 0, "not before the operation says it finished")
                operation.finishSilently()
                watcher.observedFinish(of: operation)
                watcher.observedFinish(of: operation)
                #expect(fired.current == 1)
            }
            await waitUntil { released == nil }
            #expect(released == nil, "a fired watcher holds itself no longer")
            // Foundation now walks the operation's dependents: none is left to touch.
            operation.willChangeValue(forKey: "isFinished")
            operation.didChangeValue(forKey: "isFinished")
            #expect(operation.dependencies.isEmpty && fired.current == 1)
        }
    }
}
