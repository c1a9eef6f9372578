import ConditionalOperationsMachines
import Foundation

/// How a ``ConditionalOperationQueue`` takes an operation in: one trip through its storage when
/// nothing else is involved (no delegate, barrier, logger or shutdown), two otherwise (more if a
/// barrier block is added or the queue shut down meanwhile); and where a plain operation goes
/// (`QueueStateMachine.PlainRoute`).
extension ConditionalOperationQueue {
    /// Takes `operation` in: tells the delegate, adds the barriers, registers it until it finished.
    /// Returns whether it is ready now (the caller submits it); otherwise it is submitted once ready.
    func admit(_ operation: Foundation.Operation) -> Bool {
        let conditional = operation as? ConditionalOperation
        if conditional == nil, operation.isFinished || operation.isExecuting {
            Self.trapAddedTwice(operation)
        }
        var dependencies = Self.unfinishedDependencies(of: operation, conditional)
        let registration: QueueStorage.Registration
        switch storage.admit(
            operation, dependencies: dependencies, plain: Self.plainFacts(of: operation, dependencies))
        {
        case .registered(let registered):
            registration = registered
        case .prepare(let preparation):
            // S21: it finishes without running.
            if preparation.isShutDown { Self.cancelForShutdown(operation) }
            preparation.delegate?.operationQueue(self, willAdd: operation)
            if let logChannel = preparation.logChannel, let conditional {
                conditional.addLogChannel(logChannel)
            }
            (registration, dependencies) = register(
                operation, conditional, after: preparation.barriers,
                cancelledForShutdown: preparation.isShutDown)
        }
        // A `ConditionalOperation` added twice traps itself, in `enqueue`.
        if registration.isKnown, conditional == nil { Self.trapAddedTwice(operation) }
        // Recorded from its first change on: attached in the trip that enqueues it.
        var recording: TimelineSink?
        if let timeline = registration.timeline {
            if let conditional {
                recording = timeline.track(
                    conditional, parent: registration.timelineParent, queue: ObjectIdentifier(self))
            } else if let parent = registration.timelineParent {
                timeline.runsUnrecorded(operation, under: parent)
            }
        }
        if !registration.isKnown { idle.enter() }
        let isReady: Bool
        if let conditional {
            isReady = conditional.enqueue(
                on: self, dependenciesFinished: dependencies.isEmpty, recordedBy: recording)
            // Held here, in no Foundation queue: its dependencies tell it they finished.
            if !isReady, !dependencies.isEmpty { conditional.wakeWhenFinished(dependencies) }
        } else if let route = registration.route {
            isReady = perform(route, for: operation, dependencies: dependencies)
        } else {
            fatalError("\(type(of: operation)): a plain operation registered without a route")
        }
        if !registration.cycle.isEmpty {
            let cycle = Self.unfinishedCycle(registration.cycle) {
                storage.cycle(of: operation, detaching: $0)
            }
            if !cycle.isEmpty { breakCycle(cycle) }
        }
        return isReady
    }

    /// `cycle` without the operations that finished: one that finished within the `start()` a
    /// drainer gave it stays in the graph until the drainer's next trip, after its waiters were
    /// resumed, and a cycle through it is none (a cancelled operation finishes before its
    /// dependencies do). `search` finds the cycle again once the edges through those went.
    /// Read outside the queue's lock.
    static func unfinishedCycle(
        _ cycle: [Foundation.Operation],
        searchingAgain search: ([Foundation.Operation]) -> [Foundation.Operation]
    ) -> [Foundation.Operation] {
        var cycle = cycle
        var finished = cycle.filter(\.isFinished)
        while !finished.isEmpty {
            cycle = search(finished)
            finished = cycle.filter(\.isFinished)
        }
        return cycle
    }

    /// Registers `operation` once it depends on every barrier block waiting: those read as its
    /// admission began, and any added since (a delegate told it is about to be added may add one,
    /// another thread too), which its registration would otherwise miss, as would theirs.
    /// Returns its registration and its unfinished dependencies.
    private func register(
        _ operation: Foundation.Operation, _ conditional: ConditionalOperation?,
        after barriers: [Foundation.Operation], cancelledForShutdown: Bool
    ) -> (QueueStorage.Registration, [Foundation.Operation]) {
        var known: [Foundation.Operation] = []
        var added = barriers
        var cancelled = cancelledForShutdown
        while true {
            for barrier in added { operation.addDependency(barrier) }
            known += added
            added = []
            let dependencies = Self.unfinishedDependencies(of: operation, conditional)
            switch storage.register(
                operation, dependencies: dependencies, plain: Self.plainFacts(of: operation, dependencies),
                after: known, cancelledForShutdown: cancelled)
            {
            case .registered(let registration): return (registration, dependencies)
            case .barriersAdded(let late): added = late
            case .shutDown:
                // S21: shut down meanwhile, it finishes without running, as one added after.
                Self.cancelForShutdown(operation)
                cancelled = true
            }
        }
    }

    /// Only an operation with unfinished dependencies can be part of a cycle. Foundation's own
    /// readiness answers cheaply for the common operation without any; listing them costs more.
    private static func unfinishedDependencies(
        of operation: Foundation.Operation, _ conditional: ConditionalOperation?
    ) -> [Foundation.Operation] {
        conditional?.dependenciesFinished == true ? [] : operation.dependencies.filter { !$0.isFinished }
    }

    /// A plain operation's facts for its route, read unlocked (they may be overridden); `nil` for a
    /// ``ConditionalOperation``.
    private static func plainFacts(of operation: Foundation.Operation, _ dependencies: [Foundation.Operation])
        -> QueueStateMachine.PlainFacts?
    {
        operation is ConditionalOperation
            ? nil : plainFacts(of: operation, awaitsDependencies: !dependencies.isEmpty)
    }

    static func plainFacts(of operation: Foundation.Operation, awaitsDependencies: Bool)
        -> QueueStateMachine.PlainFacts
    {
        let isCancelled = operation.isCancelled
        return QueueStateMachine.PlainFacts(
            isCancelled: isCancelled, isReady: !isCancelled && !awaitsDependencies && operation.isReady,
            awaitsDependencies: awaitsDependencies)
    }

    /// Sends a plain operation where its `route` says; returns whether it is to be submitted now
    /// (the caller submits it).
    func perform(
        _ route: QueueStateMachine.PlainRoute, for operation: Foundation.Operation,
        dependencies: [Foundation.Operation]
    ) -> Bool {
        switch route {
        case .submit:
            return true
        case .handToFoundation:
            handToFoundation(operation)
        case .awaitDependencies:
            watchDependencies(dependencies, of: operation)
        case .none:
            break
        }
        return false
    }

    /// Foundation's scheduler runs `operation` once its own `isReady` says yes; the queue watches
    /// it finish, and then frees the slot it kept for it, if any.
    func handToFoundation(_ operation: Foundation.Operation, holdingASlot: Bool = false) {
        FinishWatcher(watching: operation) { [self] in
            operationFinished(operation, errors: [], heldASlot: holdingASlot)
        }
        FoundationHandOff.handing(operation) { addToFoundation(operation) }
    }

    /// Once the last of `dependencies` finished, `operation` (waiting in the machine) goes on.
    private func watchDependencies(_ dependencies: [Foundation.Operation], of operation: Foundation.Operation)
    {
        let remaining = Locked(dependencies.count)
        for dependency in dependencies {
            FinishWatcher(watching: dependency) { [self] in
                let isLast = remaining.withLock { count in
                    count -= 1
                    return count == 0
                }
                guard isLast else { return }
                let unfinished = operation.dependencies.filter { !$0.isFinished }
                let facts = Self.plainFacts(of: operation, awaitsDependencies: !unfinished.isEmpty)
                let route = storage.plainDependenciesFinished(operation, facts: facts)
                if perform(route, for: operation, dependencies: unfinished) { submit(operation) }
            }
        }
    }

    /// Plain operations waiting for their dependencies that were cancelled: they run now, and
    /// finish at once, as on Foundation's queue.
    func submitCancelledPlainOperations() {
        // `isCancelled` may be overridden: read outside the lock.
        let cancelled = storage.waitingPlain.filter(\.isCancelled)
        let taken = storage.takeCancelledPlain(cancelled)
        if !taken.isEmpty { submit(taken) }
    }

    /// S13 for plain operations, which Foundation's queue would trap: one operation, one queue, once.
    static func trapAddedTwice(_ operation: Foundation.Operation) {
        Misuse.trap(
            "\(type(of: operation)) '\(operation.name ?? "")': added to a queue while already in one, executing "
                + "or finished (S13: an operation is added to one queue, once)")
    }
}
