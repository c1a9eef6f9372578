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
