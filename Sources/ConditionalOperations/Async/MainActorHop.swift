import Dispatch

/// Runs UI callbacks on the main actor, in the order they were asked for: the main dispatch queue
/// is the main actor's executor and runs its work first in, first out (a `Task` per callback
/// would not keep their order).
enum MainActorHop {
    static func perform(_ body: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(body) }
    }
}
