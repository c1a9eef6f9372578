import ConditionalOperationsMachines
import Dispatch

extension Uptime {
    /// The monotonic clock now.
    static var now: Uptime {
        Uptime(milliseconds: UInt32(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds / 1_000_000))
    }

    /// The seconds from this point to now.
    func seconds() -> Double {
        seconds(until: .now)
    }
}
