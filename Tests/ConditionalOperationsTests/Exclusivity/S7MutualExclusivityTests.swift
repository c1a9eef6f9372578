import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S7: operations sharing a category never execute at the same time, first come, first served.
    @Suite struct S7MutualExclusivityTests {
        /// Tracks how many operations of a category execute at once.
        final class Occupancy: Sendable {
            private let state = Locked((current: 0, peak: 0))

            func enter() {
                state.withLock {
                    $0.current += 1
                    $0.peak = max($0.peak, $0.current)
                }
            }
            func leave() { state.withLock { $0.current -= 1 } }
            var peak: Int { state.withLock { $0.peak } }
        }

        /// A probe in `category`.
        static func exclusive(_ category: String, _ behaviour: ProbeOperation.Behaviour = .finishAtOnce)
            -> ProbeOperation
        {
            let operation = ProbeOperation(behaviour)
            operation.addCondition(MutuallyExclusive(category: category))
            return operation
        }

        /// Enters the occupancy when it executes and leaves it when it finishes, later, from another thread.
        final class ExclusiveOperation: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only
            let occupancies: [Occupancy]
            let order: Recorder?
            let label: String

            init(_ categories: [String], occupancies: [Occupancy], order: Recorder? = nil, label: String = "")
            {
                self.occupancies = occupancies
                self.order = order
                self.label = label
                super.init()
                for category in categories { addCondition(MutuallyExclusive(category: category)) }
            }

            override func execute() {
                for occupancy in occupancies { occupancy.enter() }
                order?.record(label)
                DispatchQueue.global().async {
                    for occupancy in self.occupancies { occupancy.leave() }
                    self.finish()
                }
            }
        }

        @Test(arguments: 1...3)
        func S7_tenThousandOperationsInOneCategoryOverTwoQueuesNeverOverlap(round: Int) async {
            let category = "S7.many.\(round)"
            let occupancy = Occupancy()
            let queues = (0..<2).map { _ in
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 4
                return queue
            }
            let operations = (0..<10_000).map { _ in ExclusiveOperation([category], occupancies: [occupancy])
            }
            let done = completionLatch(operations)
            for (index, operation) in operations.enumerated() { queues[index % 2].addOperation(operation) }
            #expect(await done.wait(seconds: 120), "\(done.remaining) operations never finished")
            #expect(occupancy.peak == 1)
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        @Test func S7_waitingOperationsRunInTheOrderTheyAskedForTheCategory() async {
            let category = "S7.order"
            let order = Recorder()
            let occupancy = Occupancy()
            let queue = OperationQueue()
            let operations = (0..<20).map {
                ExclusiveOperation([category], occupancies: [occupancy], order: order, label: "\($0)")
            }
            let done = completionLatch(operations)
            for operation in operations { queue.addOperation(operation) }  // each asks on enqueue
            #expect(await done.wait())
            #expect(order.all == (0..<20).map { "\($0)" })
        }

        @Test func S7_severalCategoriesAreAcquiredAllOrNoneWithoutDeadlock() async {
            let a = Occupancy()
            let b = Occupancy()
            let c = Occupancy()
            let queue = OperationQueue()
            var operations: [ExclusiveOperation] = []
            for index in 0..<600 {
                switch index % 3 {
                case 0: operations.append(ExclusiveOperation(["S7.a", "S7.b"], occupancies: [a, b]))
                case 1: operations.append(ExclusiveOperation(["S7.b", "S7.c"], occupancies: [b, c]))
                default: operations.append(ExclusiveOperation(["S7.c", "S7.a"], occupancies: [c, a]))
                }
            }
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(await done.wait(seconds: 60), "\(done.remaining) operations never finished")
            #expect(a.peak == 1 && b.peak == 1 && c.peak == 1)
        }

        @Test func S7_cancellingAWaitingOperationHandsTheCategoryToTheNext() async {
            let category = "S7.cancel"
            let holder = Self.exclusive(category, .never)
            let waiting = Self.exclusive(category)
            let next = Self.exclusive(category)
            let queue = OperationQueue()
            let done = completionLatch([waiting, next])
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            queue.add([waiting, next])
            #expect(ExclusivityController.shared.requestCount(for: category) == 3)
            waiting.cancel()
            #expect(ExclusivityController.shared.requestCount(for: category) == 2)
            holder.finish()
            #expect(await done.wait())
            #expect(waiting.executions.current == 0)
            #expect(next.executions.current == 1)
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        @Test func S7_waitingHoldsNoQueueSlot() async {
            let category = "S7.slot"
            let holder = Self.exclusive(category, .never)
            let waiting = Self.exclusive(category)
            let unrelated = ProbeOperation()
            let holderQueue = OperationQueue()
            holderQueue.addOperation(holder)
            #expect(await holder.executing.wait())
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let unrelatedDone = completionLatch([unrelated])
            queue.add([waiting, unrelated])
            #expect(await unrelatedDone.wait(), "the waiting operation holds no slot")
            #expect(waiting.state == .evaluatingConditions)
            let waitingDone = completionLatch([waiting])
            holder.finish()
            #expect(await waitingDone.wait())
        }

        @Test func S7_aFailedConditionNeverTakesTheCategory() async {
            let category = "S7.failed"
            let failing = Self.exclusive(category)
            failing.addCondition(BlockCondition { false })
            let done = completionLatch([failing])
            OperationQueue().addOperation(failing)
            #expect(await done.wait())
            #expect(failing.executions.current == 0)
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        /// The releasing operation is finished (its queue's delegate heard of it) before the next
        /// holder is even told: the next one never runs beside its last steps, and usually starts
        /// on the thread the releasing one leaves.
        @Test func S7_theNextHolderIsToldOnlyOnceTheReleasingOperationFinished() async {
            final class Delegate: ConditionalOperationQueueDelegate {
                let next: ProbeOperation
                let stateOfNext = Locked<ConditionalOperation.State?>(nil)
                init(next: ProbeOperation) { self.next = next }
                func operationQueue(
                    _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                    errors: [any Error]
                ) {
                    guard operation !== next else { return }
                    stateOfNext.withLock { $0 = next.state }
                }
            }
            let category = "S7.told"
            let first = Self.exclusive(category, .never)
            let next = Self.exclusive(category)
            let queue = ConditionalOperationQueue()
            let delegate = Delegate(next: next)
            queue.delegate = delegate
            let done = completionLatch([first, next])
            queue.add([first, next])
            #expect(await first.executing.wait())
            #expect(next.state == .evaluatingConditions, "waits for the category")
            first.finish()  // only once the next one waits: it must not be told before this finished
            #expect(await done.wait())
            await waitUntil { delegate.stateOfNext.withLock { $0 } != nil }
            #expect(delegate.stateOfNext.withLock { $0 } == .evaluatingConditions)
            #expect(next.executions.current == 1)
        }

        @Test func S7_aCategoryNobodyHoldsAnyMoreIsForgotten() async {
            let category = "S7.forgotten"
            let holder = Self.exclusive(category, .finishLater)
            let next = Self.exclusive(category)
            let done = completionLatch([holder, next])
            OperationQueue().add([holder, next])
            #expect(await done.wait())
            await waitUntil { !ExclusivityController.shared.isTracking(category) }
            #expect(!ExclusivityController.shared.isTracking(category))
        }

        /// Requests `categories` for `owner`, recording `label` once granted, at once or later.
        static func request(
            _ categories: Set<String>, on controller: ExclusivityController, for owner: NSObject,
            recording label: String, in granted: Recorder
        ) {
            let acquisition = controller.acquire(categories, for: ObjectIdentifier(owner)) {
                granted.record(label)
            }
            if acquisition.isGranted { granted.record(label) }
        }

        /// A request refers to its categories' queues: releasing it withdraws it from every one and
        /// grants whoever is then first in all of theirs, in arrival order.
        @Test func S7_releasingGrantsTheNextRequestFirstInAllItsCategories() {
            let controller = ExclusivityController()
            let granted = Recorder()
            let owners = (0..<4).map { _ in NSObject() }
            let requests: [(Set<String>, String)] = [
                (["a"], "first"), (["a", "b"], "both"), (["b"], "b only"),
            ]
            Self.request(["b"], on: controller, for: owners[3], recording: "b holder", in: granted)
            for (index, (categories, label)) in requests.enumerated() {
                Self.request(categories, on: controller, for: owners[index], recording: label, in: granted)
            }
            #expect(granted.all == ["b holder", "first"])
            controller.release(for: ObjectIdentifier(owners[0]))
            #expect(granted.all == ["b holder", "first"], "'both' still waits for b")
            controller.release(for: ObjectIdentifier(owners[3]))
            #expect(granted.all == ["b holder", "first", "both"], "'b only' came after 'both'")
            controller.release(for: ObjectIdentifier(owners[1]))
            #expect(granted.all == ["b holder", "first", "both", "b only"])
            controller.release(for: ObjectIdentifier(owners[2]))
            controller.release(for: ObjectIdentifier(owners[2]))  // idempotent
            #expect(!controller.isTracking("a") && !controller.isTracking("b"))
        }

        /// A requester has one request at a time: asking again gives back what it held or waited
        /// for, so the next in line is granted instead of waiting for a release that never comes.
        @Test func S7_askingAgainGivesTheEarlierRequestsPlaceToTheNext() {
            let controller = ExclusivityController()
            let granted = Recorder()
            let (first, second) = (NSObject(), NSObject())
            Self.request(["x"], on: controller, for: first, recording: "first x", in: granted)
            Self.request(["x"], on: controller, for: second, recording: "second x", in: granted)
            Self.request(["y"], on: controller, for: first, recording: "first y", in: granted)
            #expect(granted.all == ["first x", "second x", "first y"])
            controller.release(for: ObjectIdentifier(first))
            controller.release(for: ObjectIdentifier(second))
            #expect(!controller.isTracking("x") && !controller.isTracking("y"))
        }

        /// A requester asking again for the one category only it holds keeps it exclusive: its
        /// earlier request, the last in the line, is withdrawn before the new one finds the line.
        /// The line was once found first, then forgotten with the earlier request, and the new
        /// request stood in a line nobody else could see: the next requester held the category too
        /// (found by `ExclusivityStateMachineModelTests`; the operation itself asks once).
        @Test func S7_askingAgainForTheCategoryOnlyItHoldsKeepsItExclusive() {
            let controller = ExclusivityController()
            let granted = Recorder()
            let (first, second) = (NSObject(), NSObject())
            Self.request(["x"], on: controller, for: first, recording: "first x", in: granted)
            Self.request(["x"], on: controller, for: first, recording: "first x again", in: granted)
            Self.request(["x"], on: controller, for: second, recording: "second x", in: granted)
            #expect(granted.all == ["first x", "first x again"], "the second waits")
            #expect(controller.requestCount(for: "x") == 2)
            controller.release(for: ObjectIdentifier(first))
            #expect(granted.all == ["first x", "first x again", "second x"])
            controller.release(for: ObjectIdentifier(second))
            #expect(!controller.isTracking("x"))
        }

        @Test func S7_theCategoryOfATypeIsItsReflectedName() {
            #expect(MutuallyExclusive(Int.self).category == String(reflecting: Int.self))
            #expect(MutuallyExclusive(Int.self).mutuallyExclusiveCategories == ["Swift.Int"])
        }
    }
}
