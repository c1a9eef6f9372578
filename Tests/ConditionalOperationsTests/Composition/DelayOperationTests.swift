import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// `DelayOperation`: waits an interval or until a date, holding no thread; cancel finishes it at once.
    @Suite struct DelayOperationTests {
        @Test func waitsItsIntervalThenADependentRuns() async {
            let delay = DelayOperation(interval: .seconds(0.15))
            let dependent = ProbeOperation()
            dependent.addDependency(delay)
            let started = Date()
            let done = completionLatch([dependent])
            OperationQueue().add([dependent, delay])
            #expect(await done.wait())
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.15)
            #expect(elapsed < 10)
            #expect(delay.errors.isEmpty)
        }

        @Test func waitsUntilADate() async {
            let until = Date().addingTimeInterval(0.15)
            let delay = DelayOperation(until: until)
            ConditionalOperationQueue().addOperation(delay)
            await delay.untilFinished()
            #expect(Date() >= until)
        }

        @Test func aPastDateOrANonPositiveIntervalFinishesAtOnce() async {
            let operations = [
                DelayOperation(interval: .seconds(0)), DelayOperation(interval: .seconds(-1)),
                DelayOperation(until: .distantPast),
            ]
            let done = completionLatch(operations)
            OperationQueue().add(operations)
            #expect(await done.wait(seconds: 5))
        }

        @Test func S5_cancellingItFinishesItAtOnce() async {
            let delay = DelayOperation(interval: .seconds(60))
            let started = Latch()
            let observer = RecordingObserver()
            delay.addObserver(observer)
            delay.addObserver(BlockObserver(didStart: { _ in started.countDown() }))
            let done = completionLatch([delay])
            OperationQueue().addOperation(delay)
            #expect(await started.wait())
            delay.cancel(with: TestError(1))
            #expect(await done.wait(seconds: 10))
            #expect(testErrorIDs(delay.errors) == [1])
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        @Test func S12_aCancelledDelayHoldsNoTimerAndIsReleased() async {
            let weakDelay = WeakBox<DelayOperation>()
            do {
                let delay = DelayOperation(interval: .seconds(60))
                weakDelay.set(delay)
                let started = Latch()
                delay.addObserver(BlockObserver(didStart: { _ in started.countDown() }))
                OperationQueue().addOperation(delay)
                #expect(await started.wait())
                delay.cancel()
                await delay.untilFinished()
            }
            await waitUntil(seconds: 10) { weakDelay.object == nil }
            #expect(weakDelay.object == nil)
        }
    }
}
