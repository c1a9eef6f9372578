import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// Why is it waiting: `diagnosis` names what an operation waits for, on both queue kinds.
    @Suite struct DiagnosisTests {
        static func queue(conditional: Bool) -> OperationQueue {
            conditional ? ConditionalOperationQueue() : OperationQueue()
        }

        @Test func aNewOperationIsNotEnqueued() {
            let operation = ProbeOperation()
            operation.name = "fresh"
            #expect(operation.diagnosis.reason.isNotEnqueued)
            #expect(
                operation.diagnosis.description
                    == "ProbeOperation 'fresh' (initialized): not added to a queue or started yet")
        }

        @Test(arguments: [false, true])
        func itNamesTheUnfinishedDependenciesAndTheirStates(conditional: Bool) async {
            let first = ProbeOperation(.never)
            first.name = "first"
            let second = ProbeOperation()
            second.addDependency(first)
            let done = completionLatch([first, second])
            let queue = Self.queue(conditional: conditional)
            queue.add([first, second])
            #expect(await first.executing.wait())
            guard case .dependencies(let dependencies) = second.diagnosis.reason else {
                Issue.record("expected dependencies, got \(second.diagnosis)")
                return
            }
            #expect(dependencies == [.init(name: "ProbeOperation 'first'", state: .executing)])
            #expect(
                second.diagnosis.description.hasSuffix(
                    "waiting for 1 dependency: ProbeOperation 'first' (executing)"))
            first.cancel()
            #expect(await done.wait())
        }

        @Test(arguments: [false, true])
        func itNamesTheConditionsThatHaveNotAnswered(conditional: Bool) async throws {
            let pending = ManualCondition()
            let operation = ProbeOperation()
            operation.addCondition(BlockCondition(name: "Answered") { true })
            operation.addCondition(pending)
            let done = completionLatch([operation])
            Self.queue(conditional: conditional).addOperation(operation)
            try await pending.waitUntilEvaluated(timeout: .seconds(20))
            guard case .conditions(let unanswered, let waited) = operation.diagnosis.reason else {
                Issue.record("expected conditions, got \(operation.diagnosis)")
                return
            }
            #expect(unanswered == ["ManualCondition"])
            #expect(waited >= 0)
            #expect(operation.diagnosis.description.contains("not answered: ManualCondition"))
            pending.answer(.satisfied)
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
        }

        @Test(arguments: [false, true])
        func itNamesTheCategoryItsHolderAndThePlaceInLine(conditional: Bool) async {
            let category = "DiagnosisTests.\(conditional)"
            let holder = ProbeOperation(.never)
            holder.name = "holder"
            holder.addCondition(MutuallyExclusive(category: category))
            let waiter = ProbeOperation()
            waiter.addCondition(MutuallyExclusive(category: category))
            let queue = Self.queue(conditional: conditional)
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) { waiter.diagnosis.reason.isWaitingForCategories }
            guard case .categories(let waits, _) = waiter.diagnosis.reason else {
                Issue.record("expected categories, got \(waiter.diagnosis)")
                return
            }
            #expect(waits == [.init(category: category, holder: "ProbeOperation 'holder'", ahead: 1)])
            #expect(
                waiter.diagnosis.description.contains(
                    "'\(category)' (held by ProbeOperation 'holder', 1 ahead)"))
            let done = completionLatch([waiter])
            holder.finish()
            #expect(await done.wait())
        }

        @Test func aReadyOperationNamesItsSuspendedQueue() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let operation = ProbeOperation()
            queue.addOperation(operation)
            #expect(operation.diagnosis.reason == .start(.suspended))
            #expect(operation.diagnosis.description.hasSuffix("ready, but its queue is suspended"))
            let done = completionLatch([operation])
            queue.isSuspended = false
            #expect(await done.wait())
        }

        @Test func aReadyOperationNamesItsQueuesConcurrencyLimit() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let running = ProbeOperation(.never)
            let waiting = ProbeOperation()
            queue.addOperation(running)
            #expect(await running.executing.wait())
            queue.addOperation(waiting)
            #expect(waiting.diagnosis.reason == .start(.atConcurrencyLimit(1)))
            let done = completionLatch([waiting])
            running.finish()
            #expect(await done.wait())
        }

        @Test(arguments: [false, true])
        func anExecutingOperationSaysForHowLong(conditional: Bool) async {
            let operation = ProbeOperation(.never)
            Self.queue(conditional: conditional).addOperation(operation)
            #expect(await operation.executing.wait())
            guard case .executing(let seconds?) = operation.diagnosis.reason else {
                Issue.record("expected executing with a duration, got \(operation.diagnosis)")
                return
            }
            #expect(seconds >= 0 && seconds < 60)
            let done = completionLatch([operation])
            operation.finish()
            #expect(await done.wait())
            #expect(operation.diagnosis.reason.isFinished)
        }

        @Test func aFinishedOperationCountsItsErrors() async {
            let operation = ProbeOperation(.finishWith([TestError(1), TestError(2)]))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.diagnosis.description.hasSuffix("(finished): finished with 2 errors"))
        }

        @Test func theQueueReportsEveryUnfinishedOperation() async {
            let queue = ConditionalOperationQueue()
            queue.name = "report"
            queue.isSuspended = true
            let first = ProbeOperation()
            first.name = "first"
            let second = ProbeOperation()
            second.name = "second"
            second.addDependency(first)
            queue.add([first, second])
            let diagnoses = queue.diagnoses
            #expect(diagnoses.count == 2)
            let report = queue.diagnosticReport
            #expect(report.hasPrefix("ConditionalOperationQueue 'report': 2 unfinished, suspended"))
            #expect(
                report.contains(
                    "ProbeOperation 'second' (pending): waiting for 1 dependency: ProbeOperation 'first' (ready)"
                ))
            #expect(report.contains("ProbeOperation 'first' (ready): ready, but its queue is suspended"))
            let done = completionLatch([first, second])
            queue.isSuspended = false
            #expect(await done.wait())
            #expect(queue.diagnoses.isEmpty)
        }

        @Test func aPlainOperationInTheQueueIsDiagnosedToo() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let plain = BlockOperation {}
            queue.addOperation(plain)
            #expect(
                queue.diagnoses.map(\.description) == [
                    "BlockOperation (ready): ready, but its queue is suspended"
                ])
            let done = completionLatch([plain])
            queue.isSuspended = false
            #expect(await done.wait())
        }
    }
}

extension OperationDiagnosis.Reason {
    var isNotEnqueued: Bool {
        if case .notEnqueued = self { true } else { false }
    }

    var isWaitingForCategories: Bool {
        if case .categories = self { true } else { false }
    }

    var isFinished: Bool {
        if case .finished = self { true } else { false }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.start(let left), .start(let right)): left == right
        default: false
        }
    }
}
