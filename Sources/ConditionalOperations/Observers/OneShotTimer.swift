import Dispatch
import Foundation

/// A `DispatchSourceTimer` that fires once: waiting holds no thread.
enum OneShotTimer {
    /// A timer firing `handler` once at `deadline`, not yet resumed: store it, then `resume()` it,
    /// so that the handler always finds it stored. Cancel it to drop the handler.
    static func make(
        at deadline: Deadline, qualityOfService: QualityOfService, handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: qualityOfService.dispatchQoSClass))
        switch deadline {
        case .after(let interval): timer.schedule(deadline: .now() + max(0, interval))
        case .at(let date): timer.schedule(wallDeadline: wallTime(date))
        }
        timer.setEventHandler(handler: handler)
        return timer
    }

    enum Deadline {
        /// This many seconds from now (monotonic clock).
        case after(TimeInterval)
        /// At this date (wall clock).
        case at(Date)
    }

    private static func wallTime(_ date: Date) -> DispatchWallTime {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        return DispatchWallTime(timespec: timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9)))
    }
}
