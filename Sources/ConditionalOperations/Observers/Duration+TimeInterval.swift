import Foundation

extension Duration {
    /// The duration in seconds, for the library's timers, which count in `TimeInterval`s (S24: every
    /// interval parameter takes a `Duration` as well).
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
