import Dispatch
import Foundation

/// Runs one round on a dedicated thread and waits for it with a time bound, so a stalled
/// scenario is reported as such instead of hanging the whole run.
///
/// The round gets its own `Thread`, not a dispatch worker: it may block (in
/// ``Completion/waitForAll(_:)``) without taking a thread from libdispatch's pool, which the
/// operations under test need. The main thread sleeps on a semaphore; nothing spins.
enum Watchdog {
    /// Returns what `work` returned, or `nil` if it did not return within `limit`.
    ///
    /// A stalled round is abandoned, not stopped: its thread stays blocked and keeps its queue
    /// and operations alive for the rest of the process, because releasing operations that still
    /// sit in a swift-corelibs-foundation queue crashes it.
    static func run<T: Sendable>(limit: Duration, _ work: @escaping @Sendable () -> T) -> T? {
        let outcome = Outcome<T>()
        let thread = Thread {
            outcome.value = work()
            outcome.done.signal()
        }
        thread.name = "benchmark round"
        thread.start()
        guard outcome.done.wait(timeout: .now() + limit.dispatchInterval) == .success else {
            return nil
        }
        return outcome.value
    }

    /// Shared between the round's thread and the waiting main thread.
    /// `Synchronization.Mutex` needs macOS 15: the package supports macOS 13.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        // `stored` is only reached under `lock`
        private let lock = NSLock()
        private var stored: T?
        let done = DispatchSemaphore(value: 0)

        var value: T? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}

extension Duration {
    /// Whole nanoseconds, for dispatch deadlines.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
