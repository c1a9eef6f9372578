import Foundation

@testable import ConditionalOperations

/// Runs `first` and `second` at the same moment on two threads of their own, after `firstDelay`
/// and `secondDelay` steps of a few nanoseconds each, and returns once both returned: rounds with
/// delays that vary sweep one side across the other's timeline, to land in a window between two of
/// its steps. Both threads meet before either goes on, so that neither waits for the other to be
/// made or woken.
func together(
    _ first: @escaping @Sendable () -> Void, after firstDelay: Int = 0,
    _ second: @escaping @Sendable () -> Void, after secondDelay: Int = 0
) async {
    let arrived = Locked(0)
    let done = Latch(count: 2)
    for (work, delay) in [(first, firstDelay), (second, secondDelay)] {
        Thread {
            arrived.withLock { $0 += 1 }
            while arrived.withLock({ $0 }) < 2 { sched_yield() }
            spin(delay)
            work()
            done.countDown()
        }.start()
    }
    _ = await done.wait()
}

/// Busy for `steps` steps of a few nanoseconds each.
func spin(_ steps: Int) {
    var value = UInt64(truncatingIfNeeded: steps)
    for _ in 0..<(steps * 8) { value = value &* 6_364_136_223_846_793_005 &+ 1 }
    withExtendedLifetime(value) {}
}
