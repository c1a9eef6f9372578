import Dispatch
import Foundation

@testable import ConditionalOperations

/// Bodies run on threads of their own (never the dispatch pool, which they could starve), each
/// waiting at a spin barrier until all arrived, so that they land together. The barrier gives
/// up after 50 ms: on a loaded machine the bodies then run as they come.
struct AdversaryRace: Sendable {
    private let group = DispatchGroup()

    init(_ bodies: [@Sendable () -> Void]) {
        let arrived = Locked(0)
        let count = bodies.count
        for body in bodies {
            group.enter()
            let group = self.group
            let thread = Thread {
                arrived.withLock { $0 += 1 }
                let giveUp = DispatchTime.now().uptimeNanoseconds + 50_000_000
                while arrived.withLock({ $0 }) < count && DispatchTime.now().uptimeNanoseconds < giveUp {
                    sched_yield()
                }
                body()
                group.leave()
            }
            thread.start()
        }
    }

    /// Waits, holding no thread, until every body returned; `false` after `seconds`.
    func wait(seconds: Double) async -> Bool {
        let latch = Latch()
        group.notify(queue: .global()) { latch.countDown() }
        return await latch.wait(seconds: seconds)
    }

    /// Blocks the calling thread until every body returned; `false` after `seconds`. For a
    /// caller that must not return first (an operation's `finished(errors:)` hook).
    func waitBlocking(seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }
}

/// Threads that call `read` over and over, with a short pause now and then, until stopped.
final class AdversaryReaders: Sendable {
    private let stopped = Locked(false)
    private let group = DispatchGroup()

    init(count: Int, _ read: @escaping @Sendable (_ iteration: Int) -> Void) {
        for _ in 0..<count {
            group.enter()
            let group = self.group
            let stopped = self.stopped
            let thread = Thread {
                var iteration = 0
                // Bounded, should a scenario never stop them.
                while !stopped.withLock({ $0 }) && iteration < 1_000_000 {
                    read(iteration)
                    iteration += 1
                    if iteration.isMultiple(of: 4) { usleep(50) }
                }
                group.leave()
            }
            thread.start()
        }
    }

    /// Stops the readers and waits until each returned; `false` after `seconds`.
    func stop(seconds: Double = 10) async -> Bool {
        stopped.withLock { $0 = true }
        let latch = Latch()
        group.notify(queue: .global()) { latch.countDown() }
        return await latch.wait(seconds: seconds)
    }
}

/// Reads every public member of an operation, a group and a queue, as an application's other
/// threads may at any moment: nothing may trap, deadlock or change what the operation does.
enum AdversaryReading {
    static func read(_ operation: ConditionalOperation, iteration: Int) {
        _ = operation.state
        _ = operation.errors
        _ = operation.failed
        _ = operation.isSkipped
        _ = operation.isReady
        _ = operation.isExecuting
        _ = operation.isFinished
        _ = operation.isCancelled
        _ = operation.isAsynchronous
        _ = operation.dependencies.count
        _ = operation.name
        _ = operation.queuePriority
        _ = operation.qualityOfService
        _ = operation.diagnosis.description
        if iteration.isMultiple(of: 8) {
            _ = operation.progress.totalUnitCount
            _ = operation.events  // a new stream, dropped unread: costs the operation nothing (S16)
        }
        if iteration < 64 && iteration.isMultiple(of: 16) { operation.addObserver(BlockObserver()) }
        if let group = operation as? GroupOperation {
            _ = group.children.count
            _ = group.maxConcurrentChildren
        }
    }

    static func read(_ queue: OperationQueue, iteration: Int) {
        _ = queue.operationCount
        _ = queue.isSuspended
        _ = queue.maxConcurrentOperationCount
        _ = queue.name
        _ = queue.qualityOfService
        _ = queue.underlyingQueue
        if iteration.isMultiple(of: 4) { _ = queue.operations.count }
        if let queue = queue as? ConditionalOperationQueue {
            _ = queue.unfinishedOperationCount
            _ = queue.unfinishedOperations.count
            _ = queue.isShutDown
            _ = queue.delegate
            if iteration.isMultiple(of: 16) {
                _ = queue.diagnoses.count
                _ = queue.diagnosticReport
                _ = OperationGraph(queue: queue).dot
            }
        }
    }
}
