import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Releasing the last reference to an operation is safe at any moment, whatever its number of
    /// dependencies and whether they finished: Foundation lists an operation, by an unretained
    /// pointer, in each dependency it waits for, and a long chain of operations released
    /// recursively overflows the stack.
    @Suite struct DependencyReleaseTests {
        /// Released, cancelled or not, before any of its dependencies ran; they run afterwards.
        /// Before, above 64 dependencies the operation stayed listed in them, and the first to
        /// finish touched the freed operation (a crash, every run, at 65 and 200).
        @Test(arguments: [1, 64, 65, 200, 5_000], [true, false])
        func anOperationReleasedBeforeItsDependenciesFinishIsForgottenByThem(width: Int, cancelled: Bool)
            async
        {
            let dependencies = (0..<width).map { _ in BlockOperation {} }
            weak var released: ConditionalOperation?
            do {
                let operation = ConditionalOperation()
                for dependency in dependencies { operation.addDependency(dependency) }
                if cancelled { operation.cancel() }
                released = operation
            }
            await waitUntil { released == nil }
            #expect(released == nil)
            let queue = OperationQueue()
            let done = completionLatch(dependencies)
            queue.add(dependencies)
            #expect(await done.wait(seconds: 60))
        }

        /// S12: released, never enqueued nor started (its caller backs out), while its dependency
        /// finishes on another thread: safe, since its dependencies list it only once it is
        /// admitted. Before, swift-corelibs-foundation's finishing dependency could retain it
        /// after its deinit began ("deallocated with non-zero retain count"), or read it once
        /// freed.
        @Test func S12_anOperationNeverEnqueuedReleasedWhileItsDependencyFinishesIsSafe() async {
            await Self.releaseWhileItsDependencyFinishes(cancellingFirst: false)
        }

        /// Cancelled, then released, while its dependency finishes on another thread: safe,
        /// since a cancelled operation is never retained by a finishing dependency (its count of
        /// unfinished dependencies is zero).
        @Test func aCancelledOperationReleasedWhileItsDependencyFinishesIsSafe() async {
            await Self.releaseWhileItsDependencyFinishes(cancellingFirst: true)
        }

        /// 20,000 rounds on a thread of their own: an operation with one dependency, released
        /// (cancelled first if `cancellingFirst`) as that dependency starts on another thread.
        static func releaseWhileItsDependencyFinishes(cancellingFirst: Bool) async {
            let done = Latch()
            Thread.detachNewThread {
                for _ in 0..<20_000 {
                    let dependency = BlockOperation {}
                    var operation: ConditionalOperation? = ConditionalOperation()
                    operation?.addDependency(dependency)
                    let go = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        go.wait()
                        dependency.start()
                    }
                    if cancellingFirst { operation?.cancel() }
                    go.signal()
                    operation = nil
                    _ = operation
                }
                done.countDown()
            }
            #expect(await done.wait(seconds: 120))
        }

        /// S12, hostile release: a cancelled operation whose last reference goes while its
        /// dependency finishes. swift-corelibs-foundation visits the dependents listed in a
        /// finishing dependency under that dependency's lock, retaining each a moment: when that
        /// retain was the last, the dependent's deinit ran there, and its clean-up, which takes
        /// the same lock, waited forever. The releasing thread reads the operation until the
        /// dependency finished (Foundation's visit waits for those reads), then a few times more,
        /// so that the release lands inside the visit. Before the fix: about one round in 100 hung.
        @Test func S12_aCancelledDependentReleasedWhileItsDependencyFinishesNeverDeadlocks() async {
            let rounds = 3_000
            let hung = Locked<Int?>(nil)
            let done = Latch()
            Thread.detachNewThread {
                for round in 0..<rounds {
                    let dependency = BlockOperation {}
                    let slot = Locked<ConditionalOperation?>(ConditionalOperation())
                    slot.withLock { $0?.addDependency(dependency) }
                    slot.withLock { $0 }?.cancel()
                    DispatchQueue.global().async {
                        var operation = slot.withLock { slot in
                            defer { slot = nil }
                            return slot
                        }
                        var reads = round % 4
                        while operation != nil {
                            _ = operation?.dependencies
                            guard dependency.isFinished else { continue }
                            if reads == 0 { operation = nil }
                            reads -= 1
                        }
                    }
                    let finished = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        dependency.start()
                        finished.signal()
                    }
                    if finished.wait(timeout: .now() + 10) == .timedOut {
                        hung.withLock { $0 = round }
                        break
                    }
                }
                done.countDown()
            }
            #expect(await done.wait(seconds: 120))
            #expect(
                hung.withLock { $0 } == nil,
                "the finishing dependency hung in round \(hung.withLock { $0 } ?? 0)")
        }

        /// Its deinit holds the thread that lets go of it until released: let go of under an
        /// operation's Foundation lock (as `completionBlock`'s setter lets go of the old block),
        /// it keeps that lock taken.
        final class HoldsItsThreadWhenLetGo: Sendable {
            let entered: Latch
            let release: DispatchSemaphore
            init(entered: Latch, release: DispatchSemaphore) {
                self.entered = entered
                self.release = release
            }
            deinit {
                entered.countDown()
                release.wait()
            }
        }

        /// S12: a dependent admitted, not cancelled, waiting for two dependencies, whose last
        /// reference is the one swift-corelibs-foundation takes for a moment as the first of them
        /// finishes (it visits the dependents it lists, under the finishing operation's lock). Its
        /// deinit then runs there, inside the dependency's announcement of its finish; before the
        /// fix it took its dependencies out of Foundation, that one under the same lock, and the
        /// dependency's finish never returned (the adversary suite's one hang, found once in 300
        /// rounds under AddressSanitizer: a group's child that had finished, and told its
        /// observers, but whose completion block never ran). Made certain here: the dependent's
        /// own Foundation lock is held meanwhile, so that the visit waits holding it, and the
        /// test lets go of its reference then.
        @Test func S12_aDependentLetGoOfWhileItsDependencyAnnouncesItsFinishIsReleasedThere() async throws {
            let finishing = ProbeOperation(.never)
            let other = ProbeOperation(.never)
            finishing.start()
            other.start()
            var dependent: ConditionalOperation? = ConditionalOperation()
            weak var released: ConditionalOperation?
            released = dependent
            let handle = Unmanaged.passUnretained(try #require(dependent))
            func references() -> UInt { handle._withUnsafeGuaranteedRef { _getRetainCount($0) } }
            dependent?.addDependency(finishing)
            dependent?.addDependency(other)
            dependent?.start()  // admitted: both dependencies list it, and it waits for them
            let entered = Latch()
            let release = DispatchSemaphore(value: 0)
            dependent?.completionBlock = {
                [holder = HoldsItsThreadWhenLetGo(entered: entered, release: release)] in
                withExtendedLifetime(holder) {}
            }
            // Its Foundation lock, taken: the old block is let go of under it. No reference is taken.
            Thread.detachNewThread { handle._withUnsafeGuaranteedRef { $0.completionBlock = nil } }
            #expect(await entered.wait())
            let held = references()  // the test's, and any the count itself takes
            let returned = Latch()
            Thread.detachNewThread {
                finishing.finish()
                returned.countDown()
            }
            // The finishing dependency took its reference, and waits for the lock.
            await waitUntil(seconds: 10) { references() == held + 1 }
            #expect(references() == held + 1)
            dependent = nil
            release.signal()
            #expect(await returned.wait(seconds: 10), "the dependency's finish never returned")
            await waitUntil { released == nil }
            #expect(released == nil)
            other.finish()
            try await other.untilFinished(timeout: .seconds(10))
        }

        /// A chain released from its last operation, which was never enqueued: released one
        /// operation after another, not recursively.
        @Test func aLongChainNeverEnqueuedIsReleasedWithoutOverflowingTheStack() async {
            weak var first: ConditionalOperation?
            do {
                var operations = (0..<100_000).map { _ in ConditionalOperation() }
                first = operations.first
                for index in operations.indices.dropFirst() {
                    operations[index].addDependency(operations[index - 1])
                }
                operations.removeAll()
            }
            await waitUntil(seconds: 60) { first == nil }
            #expect(first == nil)
        }
    }
}
