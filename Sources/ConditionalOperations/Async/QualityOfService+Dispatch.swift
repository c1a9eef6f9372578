import Dispatch
import Foundation

extension QualityOfService {
    /// The global Dispatch queue's class for work the library runs on an operation's behalf.
    var dispatchQoSClass: DispatchQoS.QoSClass {
        switch self {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .utility: .utility
        case .background: .background
        default: .default
        }
    }
}

extension QualityOfService {
    /// The priority of a task the library starts on an operation's behalf (S15).
    var taskPriority: TaskPriority {
        switch self {
        case .userInteractive: .high
        case .userInitiated: .userInitiated
        case .utility: .utility
        case .background: .background
        default: .medium
        }
    }
}
