import ConditionalOperationsMachines
import Testing

extension ConditionalOperationsTests {
    /// S28: a rate limit's window, driven with made-up times: at most `permits` permits within any
    /// window of `interval`; a permit frees `interval` after it was taken.
    @Suite struct S28RateWindowTests {
        @Test func S28_aWindowHoldsAtMostPermitsAndFreesEachAnIntervalAfterItWasTaken() {
            var window = RateWindow(permits: 3, interval: 1000)
            #expect(window.available(at: 0) == 3)
            #expect(window.oldestExpiry(at: 0) == nil, "an empty window frees nothing later")
            window.take(at: 0)
            window.take(at: 10)
            window.take(at: 20)
            #expect(window.available(at: 20) == 0)
            #expect(window.available(at: 999) == 0, "the first permit counts until 0 + 1000")
            #expect(window.nextPermit(at: 500) == 1000)
            #expect(window.available(at: 1000) == 1)
            #expect(window.available(at: 1010) == 2)
            #expect(window.available(at: 1010, upTo: 1) == 1, "a line of one asks for one")
            #expect(window.available(at: 1010, upTo: 5) == 2)
            #expect(window.available(at: 500, upTo: 5) == 0)
            window.take(at: 1000)
            #expect(window.available(at: 1005) == 0, "10, 20 and 1000 lie within (5, 1005]")
            #expect(window.nextPermit(at: 1005) == 1010)
            #expect(window.available(at: 1020) == 2)
            #expect(window.available(at: 2000) == 3, "every permit expired")
            #expect(window.nextPermit(at: 2000) == 2000, "a permit is free now")
        }

        @Test func S28_aSlidingWindowNeverHoldsMoreThanPermitsWhateverTheTimes() {
            // Take every permit the window allows at irregular times, then check every window.
            var window = RateWindow(permits: 4, interval: 100)
            var taken: [UInt64] = []
            var now: UInt64 = 0
            for step in 0..<2_000 {
                now += UInt64((step * 7919) % 37)
                while window.available(at: now) > 0 {
                    window.take(at: now)
                    taken.append(now)
                }
            }
            for (index, start) in taken.enumerated() {
                let within = taken[index...].prefix { $0 < start + 100 }.count
                #expect(within <= 4, "more than 4 permits in [\(start), \(start + 100))")
            }
            #expect(taken.count > 200, "the window let permits through as time passed")
        }

        @Test func S28_aTimeEarlierThanTheLastPermitCountsAsTheLast() {
            var window = RateWindow(permits: 2, interval: 100)
            window.take(at: 50)
            window.take(at: 40)  // read the clock before the other thread, took the lock after it
            #expect(window.available(at: 149) == 0, "both count until 150")
            #expect(window.available(at: 150) == 2)
        }

        final class Entry: Equatable {
            static func == (lhs: Entry, rhs: Entry) -> Bool { lhs === rhs }

            var stands = true
        }

        @Test func S28_aLineAdmitsAsManyAsPermitsAreFreeInArrivalOrder() {
            var line = RateLine<Entry>(window: RateWindow(permits: 2, interval: 100))
            let entries = (0..<4).map { _ in Entry() }
            for entry in entries { line.append(entry) }
            #expect(entries.map { line.admits($0, at: 0, stands: \.stands) } == [true, true, false, false])
            line.grant(entries[1], at: 0)  // the second may go first: the first waits for a category
            #expect(line.count == 3)
            #expect(entries.map { line.admits($0, at: 1, stands: \.stands) } == [true, false, false, false])
            #expect(line.waitsForTime(at: 1))
            // The first is withdrawn (cancelled): the next in line comes within the free permit.
            line.withdraw(entries[0])
            #expect(line.admitted(at: 1, stands: \.stands) === [entries[2]])
            #expect(line.position(of: entries[3]) == 1)
            line.withdraw(entries[3])
            #expect(line.admitted(at: 1, stands: \.stands) === [entries[2]])
            line.grant(entries[2], at: 1)
            #expect(line.count == 0)
            #expect(!line.waitsForTime(at: 1))
        }

        /// S33: a request that waits for a category holds no place: the permits go to those behind
        /// it that stand, and it counts again once it stands.
        @Test func S33_aRequestWaitingForACategoryHoldsNoPlaceInTheLine() {
            var line = RateLine<Entry>(window: RateWindow(permits: 1, interval: 100))
            let entries = (0..<3).map { _ in Entry() }
            for entry in entries { line.append(entry) }
            entries[0].stands = false
            #expect(entries.map { line.admits($0, at: 0, stands: \.stands) } == [true, true, false])
            #expect(line.admitted(at: 0, stands: \.stands) === [entries[1]])
            entries[0].stands = true
            #expect(line.admitted(at: 0, stands: \.stands) === [entries[0]])
        }
    }
}

/// Whether two arrays hold the same objects, in order.
private func === <T: AnyObject>(lhs: [T], rhs: [T]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
}
