import Dispatch
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S28: rate limits in the exclusivity controller, on a clock the test moves: first come, first
    /// served; a timer lets waiters in as the window frees permits; a withdrawn waiter takes none;
    /// a permit is taken with the categories, all at once.
    @Suite struct S28RateLimitControllerTests {
        static let second: UInt64 = 1_000_000_000

        final class Requester: Sendable {}

        /// A controller on `clock`, and the key of a rate limit of `permits` a second.
        static func controller(permits: Int, clock: FakeRateClock) -> (ExclusivityController, String) {
            let rate = RateLimit("S28.controller", permits: permits, per: .seconds(1))
            return (ExclusivityController(clock: clock), rate.mutuallyExclusiveCategories.first!)
        }

        @Test func S28_waitersGetPermitsFirstComeFirstServedAsTheWindowFreesThem() {
            let clock = FakeRateClock()
            let (controller, key) = Self.controller(permits: 2, clock: clock)
            let granted = Recorder()
            let requesters = (0..<7).map { _ in Requester() }
            var immediate: [Int] = []
            for (index, requester) in requesters.enumerated() {
                let acquisition = controller.acquire([key], for: ObjectIdentifier(requester)) {
                    granted.record("\(index)")
                }
                if acquisition.isGranted { immediate.append(index) }
            }
            #expect(immediate == [0, 1])
            #expect(controller.rateLineCount(named: "S28.controller") == 5)
            #expect(clock.pendingDeadlines == [clock.now + Self.second], "one timer, for the first expiry")
            clock.advance(by: Self.second / 2)
            #expect(granted.all.isEmpty, "no permit frees within the window")
            clock.advance(by: Self.second / 2)
            #expect(granted.all == ["2", "3"])
            clock.advance(by: Self.second)
            #expect(granted.all == ["2", "3", "4", "5"])
            clock.advance(by: Self.second)
            #expect(granted.all == ["2", "3", "4", "5", "6"])
            #expect(clock.pendingDeadlines.isEmpty, "nobody waits: no timer")
            // Giving back what they hold frees no permit: only time does. The last permit, taken a
            // window ago, leaves one free.
            for requester in requesters { controller.release(for: ObjectIdentifier(requester)) }
            let late = (0..<2).map { _ in Requester() }
            #expect(
                late.map { controller.acquire([key], for: ObjectIdentifier($0)) {}.isGranted } == [
                    true, false,
                ])
            for requester in late { controller.release(for: ObjectIdentifier(requester)) }
        }

        /// A permit expiring while the controller turns a request away: the request is woken by
        /// its timer all the same. The controller once read the clock again to decide on the
        /// timer, saw the permit free by then, and set none: the waiter waited forever (12 fetches
        /// under a rate limit of 10 a second: the last one never started, 1 run in 4 of 40 rounds).
        @Test func S28_aWaiterTurnedAwayAsAPermitExpiresIsWokenByItsTimer() {
            let clock = FakeRateClock()
            let (controller, key) = Self.controller(permits: 1, clock: clock)
            let holder = Requester()
            #expect(controller.acquire([key], for: ObjectIdentifier(holder)) {}.isGranted)
            clock.advance(by: Self.second - 1)  // 1 ns before the permit expires
            clock.tick(by: 1)  // each reading of the clock now takes 1 ns
            let granted = Recorder()
            let waiter = Requester()
            #expect(
                !controller.acquire([key], for: ObjectIdentifier(waiter)) { granted.record("waiter") }
                    .isGranted)
            clock.tick(by: 0)
            #expect(!clock.pendingDeadlines.isEmpty, "the waiter has a timer")
            clock.advance(by: Self.second)
            #expect(granted.all == ["waiter"])
            for requester in [holder, waiter] { controller.release(for: ObjectIdentifier(requester)) }
        }

        @Test func S28_aWithdrawnWaiterTakesNoPermitAndLetsTheNextIn() {
            let clock = FakeRateClock()
            let (controller, key) = Self.controller(permits: 1, clock: clock)
            let granted = Recorder()
            let requesters = (0..<3).map { _ in Requester() }
            for (index, requester) in requesters.enumerated() {
                controller.acquire([key], for: ObjectIdentifier(requester)) { granted.record("\(index)") }
            }
            controller.release(for: ObjectIdentifier(requesters[1]))  // cancelled while it waits
            #expect(controller.rateLineCount(named: "S28.controller") == 1)
            clock.advance(by: Self.second)
            #expect(granted.all == ["2"], "the next one takes the permit the withdrawn one did not")
            controller.release(for: ObjectIdentifier(requesters[2]))
        }

        @Test func S33_aPermitIsTakenWithTheCategoriesAllAtOnceAndNoPlaceIsHeldMeanwhile() {
            let clock = FakeRateClock()
            let (controller, key) = Self.controller(permits: 1, clock: clock)
            let category = "S28.controller.category.\(UUID())"
            let holder = Requester()
            #expect(controller.acquire([category], for: ObjectIdentifier(holder)) {}.isGranted)
            let granted = Recorder()
            let both = Requester()
            let rateOnly = Requester()
            #expect(
                !controller.acquire([category, key], for: ObjectIdentifier(both)) { granted.record("both") }
                    .isGranted)
            // A request waiting for its category holds no place in the rate limit's line (S33): the
            // one behind it takes the free permit (it may be a child of the category's holder).
            #expect(
                controller.acquire([key], for: ObjectIdentifier(rateOnly)) { granted.record("rate") }
                    .isGranted)
            controller.release(for: ObjectIdentifier(holder))
            #expect(granted.all == [], "the category freed, the permit is spent: it waits for time")
            #expect(clock.pendingDeadlines.count == 1)
            clock.advance(by: Self.second)
            #expect(granted.all == ["both"], "then it takes the category and the permit at once")
            for requester in [both, rateOnly] { controller.release(for: ObjectIdentifier(requester)) }
        }

        @Test func S28_sixtyFourConcurrentRequestersGetPermitsOnlyAsTheWindowAllows() async {
            let clock = FakeRateClock()
            let permits = 5
            let (controller, key) = Self.controller(permits: permits, clock: clock)
            let grants = Locked(0)
            let requesters = (0..<64).map { _ in Requester() }
            let immediate = Locked(0)
            DispatchQueue.concurrentPerform(iterations: requesters.count) { index in
                let acquisition = controller.acquire([key], for: ObjectIdentifier(requesters[index])) {
                    grants.withLock { $0 += 1 }
                }
                if acquisition.isGranted { immediate.withLock { $0 += 1 } }
            }
            #expect(immediate.withLock { $0 } == permits)
            for window in 1...12 {
                clock.advance(by: Self.second)
                let expected = min(requesters.count, permits * (window + 1)) - permits
                #expect(grants.withLock { $0 } == expected, "window \(window)")
            }
            #expect(controller.rateLineCount(named: "S28.controller") == 0)
            for requester in requesters { controller.release(for: ObjectIdentifier(requester)) }
        }

        @Test func S28_theDiagnosisSaysWhenTheNextPermitComes() {
            let clock = FakeRateClock()
            let (controller, key) = Self.controller(permits: 1, clock: clock)
            let requesters = (0..<3).map { _ in Requester() }
            for requester in requesters { controller.acquire([key], for: ObjectIdentifier(requester)) {} }
            clock.advance(by: Self.second / 4)
            let rate = OperationDiagnosis.RateLimitWait(permits: 1, interval: .seconds(1), nextPermit: 0.75)
            #expect(
                controller.waits(for: ObjectIdentifier(requesters[2]))
                    == [.init(category: "S28.controller", holder: nil, ahead: 1, rateLimit: rate)])
            #expect(controller.waits(for: ObjectIdentifier(requesters[0])).isEmpty, "it holds its permit")
            for requester in requesters { controller.release(for: ObjectIdentifier(requester)) }
        }

        /// The diagnosis shows a rate as it was given: 10 per 50 ms is not 10 per 0.1 s.
        @Test(arguments: [
            (Duration.milliseconds(50), "10 per 50 ms"), (.seconds(1), "10 per 1 s"),
            (.milliseconds(1500), "10 per 1.5 s"), (.seconds(60), "10 per 60 s"),
        ])
        func S28_theDiagnosisShowsTheRateAsGiven(interval: Duration, shown: String) {
            let rate = OperationDiagnosis.RateLimitWait(permits: 10, interval: interval, nextPermit: 0)
            let wait = OperationDiagnosis.CategoryWait(
                category: "api", holder: nil, ahead: 0, rateLimit: rate)
            let text = "\(OperationDiagnosis.Reason.categories([wait], waited: 0))"
            #expect(
                text == "waiting 0.0 s for a permit: rate limit 'api' (\(shown); a permit is free, 0 ahead)")
        }
    }
}
