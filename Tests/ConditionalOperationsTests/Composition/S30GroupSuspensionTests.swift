import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S30: while `isSuspended` is `true`, a group starts no child that was not executing yet;
    /// `false` starts them, within `maxConcurrentChildren`; a cancel still cancels every child and
    /// the group finishes after them (S11).
    @Suite(.serialized) struct S30GroupSuspensionTests {
        typealias Occupancy = ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy

        /// Probes whose every start counts `started` down.
        static func probes(
            _ count: Int, _ behaviour: ProbeOperation.Behaviour = .finishAtOnce, started: Latch
        ) -> [ProbeOperation] {
            (0..<count).map { _ in
                let probe = ProbeOperation(behaviour)
                probe.addObserver(BlockObserver(didStart: { _ in started.countDown() }))
                return probe
            }
        }

        /// The group's own queue, where its children run, while it has one.
        static func childrenQueue(of group: GroupOperation) -> ConditionalOperationQueue? {
            group.withOwnLock { group.lockedGroup.queue }
        }

        @Test func S30_isSuspendedIsFalseUnlessSetAndKeepsTheValueGiven() {
            let group = GroupOperation()
            #expect(!group.isSuspended)
            group.isSuspended = true
            #expect(group.isSuspended)
            group.cancel()
            #expect(group.isSuspended, "a cancel drains the children but leaves the value alone")
        }

        @Test func S30_aGroupSuspendedBeforeItStartsStartsNoChildUntilResumed() async {
            let started = Latch(count: 3)
            let children = Self.probes(3, started: started)
            let group = GroupOperation(operations: children)
            group.isSuspended = true
            let done = completionLatch([group])
            ConditionalOperationQueue().addOperation(group)
            await waitUntil { group.isExecuting }
            #expect(group.isExecuting)
            #expect(!(await started.wait(seconds: 0.3)), "no child starts while the group is suspended")
            #expect(children.allSatisfy { $0.executions.current == 0 })
            group.isSuspended = false
            #expect(await done.wait())
            #expect(children.allSatisfy { $0.executions.current == 1 })
            #expect(group.errors.isEmpty)
        }

        @Test func S30_runningChildrenFinishWhileSuspendedAndNoOtherStarts() async throws {
            let running = ProbeOperation(.never)
            let afterRunning = Latch()
            let dependent = Self.probes(1, started: afterRunning)[0]
            dependent.addDependency(running)
            let answered = Latch()
            let condition = ManualCondition(name: "go")
            let conditioned = Self.probes(1, started: answered)[0]
            conditioned.addCondition(condition)
            let group = GroupOperation(operations: [running, dependent, conditioned])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await running.executing.wait())
            try await condition.waitUntilEvaluated(timeout: .seconds(10))

            group.isSuspended = true
            running.finish()
            condition.answer(.satisfied)
            #expect(
                !(await afterRunning.wait(seconds: 0.3)), "its dependency finished, but it does not start")
            #expect(
                !(await answered.wait(seconds: 0.1)), "its condition was satisfied, but it does not start")
            #expect(running.isFinished, "the running child ran on")
            #expect(conditioned.state == .ready && dependent.state == .ready, "both went on to ready")
            #expect(!group.isFinished)

            group.isSuspended = false
            #expect(await done.wait())
            #expect(dependent.executions.current == 1 && conditioned.executions.current == 1)
        }

        @Test func S30_resumingStartsTheHeldChildrenWithinMaxConcurrentChildren() async {
            let occupancy = Occupancy()
            let children = (0..<8).map { _ in OccupyingChild(occupancy: occupancy) }
            let group = GroupOperation(operations: children)
            group.maxConcurrentChildren = 2
            group.isSuspended = true
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            await waitUntil { group.isExecuting }
            #expect(occupancy.peak == 0)
            group.isSuspended = false
            #expect(await done.wait())
            #expect(occupancy.peak <= 2, "at most two at a time, as maxConcurrentChildren says")
            #expect(children.allSatisfy { $0.isFinished })
        }

        @Test func S30_childrenAddedWhileSuspendedWaitForTheResume() async {
            let running = ProbeOperation(.never)
            let group = GroupOperation(operations: [running])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await running.executing.wait())
            group.isSuspended = true
            let started = Latch(count: 2)
            group.addOperations(Self.probes(2, started: started))
            running.finish()
            #expect(!(await started.wait(seconds: 0.3)), "a child added while suspended does not start")
            #expect(!group.isFinished, "the group waits for the children added")
            group.isSuspended = false
            #expect(await started.wait())
            #expect(await done.wait())
        }

        /// How the group met its cancel.
        enum Cancelled: String, CaseIterable, CustomStringConvertible {
            /// Suspended, then cancelled before it was added to a queue.
            case beforeStarting
            /// Suspended before it started, cancelled while it executes, with no child started.
            case whileHoldingEveryChild
            /// Suspended while a child executes, then cancelled.
            case whileAChildExecutes

            var description: String { rawValue }
        }

        @Test(arguments: Cancelled.allCases)
        func S30_S11_cancellingASuspendedGroupFinishesEveryChildThenTheGroup(cancelled: Cancelled) async {
            let started = Latch(count: 99)
            let running = ProbeOperation(.never)
            let held = Self.probes(3, started: started)
            held[1].addDependency(held[0])
            held[2].addCondition(ManualCondition(name: "never answered"))
            let group = GroupOperation(
                operations: (cancelled == .whileAChildExecutes ? [running] : []) + held)
            let finishedFirst = Locked<[Bool]>([])
            group.addObserver(
                BlockObserver(didFinish: { group, _ in
                    let children = (group as? GroupOperation)?.children ?? []
                    finishedFirst.withLock { $0 = children.map(\.isFinished) }
                }))
            if cancelled == .whileAChildExecutes {
                group.maxConcurrentChildren = 1  // only the running child starts
            } else {
                group.isSuspended = true
            }
            if cancelled == .beforeStarting { group.cancel() }
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            switch cancelled {
            case .beforeStarting: break
            case .whileHoldingEveryChild:
                await waitUntil { group.isExecuting }
                group.cancel()
            case .whileAChildExecutes:
                #expect(await running.executing.wait())
                group.isSuspended = true
                group.cancel()
            }
            #expect(await done.wait(), "every child finishes, and then the group")
            #expect(finishedFirst.withLock { $0 }.allSatisfy { $0 } && !finishedFirst.withLock { $0 }.isEmpty)
            #expect(held.allSatisfy { $0.isFinished && $0.isCancelled && $0.executions.current == 0 })
            #expect(group.isSuspended)
        }

        @Test func S30_suspensionRacingAChildsFinishStartsNoChildOnceSuspended() async {
            let queue = OperationQueue()
            // The second child may start in each round (its slot may have been handed out before
            // the suspension); the third could start only if one started while suspended.
            let thirdStarted = Latch(count: 1)
            var groups: [(group: GroupOperation, done: Latch, children: [ProbeOperation])] = []
            for round in 0..<40 {
                let first = ProbeOperation(.never)
                let second = ProbeOperation(.never)
                let third = Self.probes(1, started: thirdStarted)[0]
                let group = GroupOperation(operations: [first, second, third])
                group.maxConcurrentChildren = 1
                let done = completionLatch([group])
                queue.addOperation(group)
                #expect(await first.executing.wait())
                await together(
                    { first.finish() }, after: round % 8 * 40,
                    { group.isSuspended = true }, after: round / 8 * 40)
                groups.append((group, done, [first, second, third]))
            }
            // A second child handed out before its group was suspended starts within this wait.
            #expect(!(await thirdStarted.wait(seconds: 0.3)))
            for (_, _, children) in groups where children[1].executions.current == 1 { children[1].finish() }
            #expect(
                !(await thirdStarted.wait(seconds: 0.3)), "no third child starts while its group is suspended"
            )
            for (group, done, children) in groups {
                group.isSuspended = false
                #expect(await children[1].executing.wait())
                children[1].finish()
                #expect(await done.wait())
                #expect(children.allSatisfy { $0.executions.current == 1 })
            }
        }

        @Test func S30_racingSettersAndCancelsLeaveTheQueueAsTheGroupLastAskedIt() async {
            for round in 0..<300 {
                let running = ProbeOperation(.never)
                let held = ProbeOperation()
                let group = GroupOperation(operations: [running, held])
                group.maxConcurrentChildren = 1
                let done = completionLatch([group])
                OperationQueue().addOperation(group)
                #expect(await running.executing.wait())
                let (delay, other) = (round % 10 * 30, round / 10 % 10 * 30)
                if round.isMultiple(of: 2) {
                    await together(
                        { group.isSuspended = true }, after: delay, { group.isSuspended = false },
                        after: other)
                    #expect(Self.childrenQueue(of: group)?.isSuspended == group.isSuspended, "round \(round)")
                    group.isSuspended = false
                    running.finish()
                } else {
                    group.isSuspended = true
                    await together(
                        { group.isSuspended = round % 4 == 1 }, after: delay, { group.cancel() }, after: other
                    )
                    #expect(
                        Self.childrenQueue(of: group)?.isSuspended != true,
                        "round \(round): cancelled, it drains")
                }
                #expect(await done.wait(), "round \(round)")
                #expect(held.isFinished)
            }
        }
    }
}
