import ConditionalOperationsMachines
import Foundation

extension ThreadIdentity {
    static var current: ThreadIdentity { ThreadIdentity(bitsOf: pthread_self()) }
}
