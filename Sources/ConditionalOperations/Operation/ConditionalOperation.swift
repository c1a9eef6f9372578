import ConditionalOperationsMachines
import Foundation

/// An asynchronous `Foundation.Operation` with conditions, observers and explicit finishing.
///
/// Subclass it, override ``execute()`` and call ``finish(errors:)`` when the work is done, from
/// any thread. Attach ``OperationCondition``s that must hold before it executes and
/// ``OperationObserver``s that hear about its start, cancellation and finish. It runs on any
/// `OperationQueue` or by a manual `start()`.
///
/// ```swift
/// final class FetchOperation: ConditionalOperation, @unchecked Sendable {
///     override func execute() {
///         download { error in self.finish(error: error) }
///     }
/// }
/// ```
///
/// A subclass must restate `@unchecked Sendable`: the compiler then checks nothing about the
/// subclass's own stored properties, so keep them immutable (`let`) or guard them with a lock.
///
/// Lifecycle: ``State-swift.enum``. Cancellation is a flag: before the operation executes it makes
/// it ready, and it finishes without executing when started; while it executes, it finishes at once
/// unless ``finishesWhenCancelled`` is `false`.
open class ConditionalOperation: Foundation.Operation, @unchecked Sendable {
    // mutable state: `lockedMachine`, behind the operation's lock (`machine`); `registrySlot`,
    // behind its queue's lock
    /// Only reached through ``machine``, under the operation's lock. Unchecked exclusivity: that
    /// lock already makes every access exclusive, and a plain queue reads it for every `isReady`.
    @exclusivity(unchecked) fileprivate var lockedMachine = Machine()
    /// The machine's ``ReadinessHint``, published by ``machine`` at the end of each locked section.
    fileprivate let published = LockFreeReadiness()
    /// Its index among the operations its ``ConditionalOperationQueue`` counts without a
    /// dependency graph entry (``QueueRegistry``), or `-1`. Behind that queue's lock, not this
    /// operation's: only the queue it was added to reads or writes it (a second queue adding it
    /// writes it once, then `enqueue` traps, S13). Unchecked exclusivity: that lock makes every
    /// access exclusive.
    @exclusivity(unchecked) var registrySlot: Int32 = -1

    /// The state machine, behind the operation's lock (one of ``LockTable``'s).
    var machine: MachineLock { MachineLock(operation: self) }

    /// The machine's ``ReadinessHint``: the same value on every platform, read without the lock
    /// where ``LockFreeReadiness`` keeps it, under the lock elsewhere. `counted`: as in
    /// ``MachineLock/withLock(counted:_:)``.
    @inline(__always)
    func readinessHint(counted: Bool = true) -> ReadinessHint {
        published.current ?? machine.withLock(counted: counted) { $0.readinessHint }
    }

    /// Creates an operation in the `initialized` state, with no conditions and no observers.
    public override init() {
        super.init()
    }

    deinit {
        // Foundation keeps its dependencies strongly, on every platform: released recursively, a
        // long chain overflows the stack. And swift-corelibs-foundation lists this operation, by
        // an unretained pointer, in each dependency it waits for, and never forgets it: that
        // dependency would touch it once it finishes. So every dependency is taken out of
        // Foundation, whatever their number, then released one after another, with those added
        // before it was admitted, which never listed it (``OperationStateMachine/deferDependency(_:)``).
        // S27: an operation given a coalescing key takes its entry with it (no lock: deinit is alone).
        // A joiner's own dependencies were never listed either (S33).
        // Alone here: the machine is read without its lock, on every platform the same way.
        // A timeline's recording is told its operation ended unfinished: what the timeline
        // records lives until every operation it recorded ended.
        lockedMachine.takeSinksAtDeallocation()?.letGoUnfinished()
        let (hasCoalescingEntry, holdsBackDependencies) = lockedMachine.deallocationFacts()
        var neverListed = hasCoalescingEntry ? CoalescingEntries.remove(ObjectIdentifier(self)) : []
        var dependencies = super.dependencies
        guard !dependencies.isEmpty || !neverListed.isEmpty || holdsBackDependencies else { return }
        neverListed.append(contentsOf: machine.withLock { $0.beginDeallocation() })
        // In the order Foundation keeps them: its search for each then stops at the first. Not the
        // one whose announcement of its finish deallocates this operation: it lists it no more,
        // and holds its lock right now (``FinishAnnouncement``).
        for dependency in dependencies where !FinishAnnouncement.isAnnouncing(dependency) {
            super.removeDependency(dependency)
        }
        dependencies.append(contentsOf: neverListed)
        neverListed = []  // the dropped list must hold the only references
        DependencyDrop.drop(&dependencies)
    }

    /// The operation was recorded in a timeline: a composite records what it runs under it from
    /// now on (``GroupOperation``, ``RetryOperation``, ``RepeatOperation``). Called outside every lock.
    func recordInnerOperations(in parent: TimelineParent) {}

    // MARK: State

    /// Always `true`: the operation ends when it calls ``finish(errors:)``, not when ``execute()``
    /// returns, so a queue never blocks a thread to run it.
    public final override var isAsynchronous: Bool { true }

    /// `true` while the operation is `executing`, and while it is `finishing` after it executed;
    /// `false` for an operation that finishes without executing.
    public final override var isExecuting: Bool { machine.withLock { $0.isExecuting() } }

    /// `true` once the operation reached `finished`: after the `finished(errors:)` hook and every
    /// `operationDidFinish` observer returned, so a dependent never starts before them.
    public final override var isFinished: Bool {
        // Foundation's reads (two to four, as its threads happen to run) are not the library's
        // trips: not counted, so that `LockTripTests` count only the library's own.
        readinessHint(counted: false) == .finished
    }

    /// `true` once ``cancel()`` took effect. Unlike a plain `Operation`'s, a cancel that comes
    /// after finishing began is ignored and leaves it `false`.
    public final override var isCancelled: Bool { machine.withLock { $0.isCancelled } }

    /// `true` once every dependency finished and every condition was satisfied, or once cancelled.
    ///
    /// The first query that finds every dependency finished starts evaluating the conditions
    /// (that is how a plain `OperationQueue`, which tells an operation nothing, admits it).
    public final override var isReady: Bool {
        // A plain queue asks every waiting operation on each scheduling pass: answer those cheaply,
        // without the lock where Foundation polls (``ReadinessHint``).
        switch readinessHint() {
        case .waiting:
            return false
        case .started, .finished:
            return true
        case .deferred:
            break
        case .dependencies:
            // Foundation's `false` stands if the phase it was read in is still the hint's.
            if !dependenciesFinished, readinessHint() == .dependencies { return false }
        case .foundation:
            // Foundation's `true` stands; its `false` is recorded under the lock.
            if super.isReady { return true }
        case .ask, .countDependencies:
            break
        }
        // Never needed to move on (``wakeWhenFinished(_:)``); a test forbids it to prove so.
        guard Self.readinessQueriesAdvance else { return machine.withLock { $0.state >= .ready } }
        switch machine.withLock({ $0.settledReadiness() }) {
        case .answer(let isReady):
            return isReady
        case .readDependencies(let stage):
            return settle(.readDependencies(stage), context: .query)
        case .query:
            return queryReadiness(context: .query)
        }
    }

    /// Moves the operation towards `ready` as far as it can go now; returns whether it is ready.
    func queryReadiness(context: Context) -> Bool {
        // Foundation's answer is needed only while the operation is not yet past its dependencies:
        // `settle` asks for it when the machine says so.
        settle(
            machine.withLock { $0.queryReadiness(dependenciesFinished: nil, context: context) },
            context: context)
    }

    /// Foundation's own answer: every dependency finished (or the operation was cancelled). Once
    /// a dependency was removed unfinished, Foundation's count keeps it: the dependencies are
    /// read instead (``ReadinessHint/countDependencies``; Apple's Foundation counts right, and
    /// keeps no hint). `false` while Foundation does not list the operation in its dependencies
    /// yet (``ReadinessHint/deferred``).
    var dependenciesFinished: Bool {
        switch readinessHint() {
        case .deferred: return false
        case .countDependencies:
            return super.isReady || super.dependencies.allSatisfy { $0.isFinished }
        case .ask, .dependencies, .waiting, .foundation, .started, .finished: return super.isReady
        }
    }

    /// Every operation this one depends on: those Foundation lists it in, then those added
    /// before it was admitted (``addDependency(_:)``).
    open override var dependencies: [Foundation.Operation] {
        guard readinessHint() == .deferred else { return super.dependencies }
        let deferred = machine.withLock { $0.deferredDependencies }
        return deferred.isEmpty ? super.dependencies : super.dependencies + deferred
    }

    // MARK: Configuration

    /// Makes the operation depend on `operation`, as Foundation does: it starts only once
    /// `operation` finished, also when the dependency is added once the operation is ready and
    /// not started yet (S9: it then waits, keeping what it was granted: its conditions are not
    /// evaluated again and the categories it holds stay held). A dependency on the operation
    /// itself is a programming error (S13): Foundation would deadlock in it.
    ///
    /// Until the operation is admitted (added to a queue, started, or asked `isReady`), Foundation
    /// is not told: swift-corelibs-foundation keeps a dependent in each dependency by an
    /// unretained pointer, and dropping the last reference to an operation never enqueued must
    /// be safe while a dependency finishes (S12). ``dependencies`` lists it all the same.
    open override func addDependency(_ operation: Foundation.Operation) {
        if operation === self {
            Misuse.trap(
                "\(diagnosticName): addDependency(_:) of the operation itself (S13: an operation never "
                    + "depends on itself)")
        }
        // Not yet admitted: Foundation lists it in `operation` only once it is
        // (``OperationStateMachine/deferDependency(_:)``).
        if machine.withLock({ $0.deferDependency(operation) }) { return }
        super.addDependency(operation)
        // Once started it is too late; before its dependencies were passed Foundation counts it
        // with the others: where the hint says so, no lock.
        let hint = readinessHint()
        switch hint {
        case .started, .finished: return
        case .ask, .deferred, .dependencies, .waiting, .foundation, .countDependencies: break
        }
        wakeWhenFinished([operation])
        if hint == .dependencies { return }
        perform(machine.withLock { $0.dependencyAdded() })
    }

    /// Takes `operation` out of the operation's dependencies, as Foundation does. An operation
    /// that waited for it alone becomes ready (S9: readiness follows the dependencies it has).
    ///
    /// swift-corelibs-foundation keeps counting a dependency removed before it finished, so a
    /// `BlockOperation` waiting for it alone waits forever there: the operation reads its
    /// dependencies itself from then on, and has the unfinished ones wake it
    /// (`wakeWhenFinished(_:)`): at once if none is left.
    open override func removeDependency(_ operation: Foundation.Operation) {
        if machine.withLock({ $0.removeDeferredDependency(operation) }) { return }
        let waitedFor = !operation.isFinished && dependencies.contains { $0 === operation }
        let waits = waitedFor && machine.withLock { $0.dependencyRemoved() }
        super.removeDependency(operation)  // asks `isReady` again
        guard waits else { return }
        wakeWhenFinished(dependencies)
    }

    /// The operation's priority among the ready operations waiting for a slot of their queue. A
    /// change while it waits counts, on a ``ConditionalOperationQueue`` as on Foundation's.
    open override var queuePriority: QueuePriority {
        get { super.queuePriority }
        set {
            super.queuePriority = newValue
            machine.withLock { $0.owner }?.reprioritize(self)
        }
    }

    // MARK: Subclass hooks

    /// The operation's work. Override it and call ``finish(errors:)`` when done, synchronously or
    /// later from any thread. Check `isCancelled` in long work. The default finishes at once.
    open func execute() {
        finish()
    }

    /// Whether a cancel while executing finishes the operation at once (S5). Default `true`.
    ///
    /// Return `false` when the operation must complete its own clean-up before dependents may
    /// start; it must then call ``finish(errors:)`` itself once cancelled.
    open var finishesWhenCancelled: Bool { true }

    /// Whether Foundation's reading of `isReady` may move the operation on (`true`). A test
    /// subclass answers `false` to prove that nothing waits for that reading: its `isReady` then
    /// only reads, as Apple's Foundation leaves it unread for an operation in none of its queues
    /// (``wakeWhenFinished(_:)``). Declared here so that a subclass overrides it.
    class var readinessQueriesAdvance: Bool { true }

    /// S22: `queue.run` calls it in its caller just before adding the operation; an
    /// ``AsyncOperation`` makes there the task that runs its work. Others run as S15 says.
    func prepareTaskInCallersContext() {}

    /// S22: `queue.run`'s caller saw the operation finish: a task made for it that never ran
    /// ends.
    func endTaskInCallersContext() {}

    /// S27: the output it finished with (a `ResultOperation`'s), for its joiners. Called under the
    /// operation's own lock (the rules of `withOwnLock(_:)`). Declared here so that a subclass
    /// overrides it.
    func outputUnderLock() -> (any Sendable)? { nil }

    /// S27: a joiner takes the output of the operation it joined, under its own lock, in the trip
    /// that makes it ready to finish. Declared here so that a subclass overrides it.
    func adoptOutputUnderLock(_ output: (any Sendable)?) {}

    /// Called once, while finishing, with every error, before observers get `operationDidFinish`.
    open func finished(errors: [any Error]) {}

    /// S11: an operation that runs others started without executing (cancelled, a condition
    /// failed, finished early): it lets them finish, then calls ``finishDraining(errors:)``.
    /// Only operations that asked for it (`drainBeforeFinishing()`) get here; `GroupOperation`
    /// overrides it. Declared here, not in an extension, so that a subclass can override it.
    func drain() {
        finishDraining(errors: [])
    }

    /// Ends ``drain()``: the operation finishes with `errors` added to its own.
    func finishDraining(errors: [any Error]) {
        perform(machine.withLock { $0.drained(errors: errors) })
    }

    /// Tells Foundation that `property` is about to change: the runner calls it before the
    /// machine changes what the property answers. Declared here, not in an extension, so that a
    /// test subclass can read the value at each notification, as Apple's KVO does for `.prior`
    /// observers (swift-corelibs-foundation's own `willChangeValue` can be neither overridden nor
    /// observed).
    func willChange(_ property: ObservedProperty) {
        if property.isPosted { willChangeValue(forKey: property.rawValue) }
    }

    /// Tells Foundation that `property` changed: the runner calls it once the machine answers the
    /// new value. Overridable for the same reason as ``willChange(_:)``.
    func didChange(_ property: ObservedProperty) {
        if property.isPosted { didChangeValue(forKey: property.rawValue) }
    }

    /// Not used: a `ConditionalOperation` runs ``execute()``. Override that instead.
    public final override func main() {}

    /// Foundation's `waitUntilFinished()`, which blocks the calling thread until the operation
    /// finished: for synchronous code only. Asynchronous code, top-level code included, awaits
    /// ``untilFinished()``, which holds no thread.
    ///
    /// Restated here so that a call from an asynchronous context names the library's wait: in
    /// top-level code (a `main.swift`) Swift picks this method even for
    /// `await operation.waitUntilFinished()`, over the `async` overload (S14).
    @available(*, noasync, message: "use 'await operation.untilFinished()', which holds no thread")
    open override func waitUntilFinished() {
        super.waitUntilFinished()
    }

    // MARK: Running

    /// Starts the operation. A queue calls it; a manual call runs the operation once its
    /// dependencies finished and its conditions were evaluated. Calling it twice is a
    /// programming error (S13).
    public final override func start() {
        perform(machine.withLock { $0.start() })
    }

    /// Finishes the operation with `errors` (none for success). The first call wins (S6).
    ///
    /// Called before the operation executes, it records the errors and the operation finishes with
    /// them, without executing, once started.
    public final func finish(errors: [any Error] = []) {
        finish(errors: errors, recording: { _ in })
    }

    /// Finishes the operation with `error`, or successfully if it is `nil`.
    public final func finish(error: (any Error)?) {
        finish(errors: error.map { [$0] } ?? [])
    }

    /// Cancels the operation. Override it (calling `super`) to customise cancellation.
    ///
    /// Before executing, the operation becomes ready and finishes without executing once started
    /// (S4); while executing, observers get `operationDidCancel` and the operation finishes at once
    /// unless ``finishesWhenCancelled`` is `false` (S5). Once finishing began it changes nothing.
    open override func cancel() {
        cancel(recording: { _ in })
    }

    /// The base `cancel()`, with `record` run in the same trip through the lock, told whether
    /// this cancel counts (the first, before finishing began): a subclass cancels its own state
    /// (a composite its attempts) in the cancel's own trip, so that whatever races the cancel
    /// comes before both or after both. `record` follows the rules of ``withOwnLock(_:)``; what
    /// it returns is handed back, to be acted on once unlocked.
    ///
    /// `prepare` runs once unlocked, before anything of the cancel is told (observers, KVO, the
    /// progress): what must hold before user code can react to the cancel (a group holds its
    /// children's queue suspended) is set there.
    ///
    /// `package`: the networking module of this package (`DataTaskOperation`) cancels its task
    /// this way; it is not API for the package's users.
    @discardableResult
    @inline(__always)
    package func cancel<Recorded>(
        recording record: (_ counts: Bool) -> Recorded, beforeTelling prepare: (Recorded) -> Void = { _ in }
    ) -> Recorded {
        // The error of the `cancel(with:)` that called this on this thread, if any: recorded in
        // the cancel's own trip through the lock, so that a finish comes before both or after both.
        let error = CancelErrorHandoff.take(for: self)
        let finishes = finishesWhenCancelled
        // Where `isCancelled` is observed, `willChangeValue` goes before the value changes: one
        // trip more to learn whether it will (a cancel that loses a race to another is told twice).
        let announces = ObservedProperty.isCancelled.isPosted && !isCancelled
        if announces { willChange(.isCancelled) }
        let (action, deferred, recorded) = machine.withLock { machine in
            let deferred = machine.takeDeferredDependencies()
            let action = machine.cancel(with: error, finishesWhenCancelled: finishes)
            let counts: Bool
            if case .ignored = action { counts = false } else { counts = true }
            return (action, deferred, record(counts))
        }
        if announces { didChange(.isCancelled) }
        prepare(recorded)
        perform(action, adding: deferred)
        return recorded
    }
}

/// Runs a closure on an operation's state machine under the operation's lock.
struct MachineLock {
    unowned(unsafe) let operation: ConditionalOperation

    /// Runs `body` with exclusive access to the machine. Never call out to user code from `body`.
    /// `counted`: whether `-DLOCK_COUNTING` builds count the trip (Foundation's own reads are not).
    @inline(__always)
    func withLock<Result>(counted: Bool = true, _ body: (inout Machine) throws -> Result)
        rethrows
        -> Result
    {
        // A log of the sinks that is let go of once it sent the end, after unlocking. Unmanaged:
        // an optional reference would be released at every trip, `nil` nearly always.
        var ended: Unmanaged<SinkLog>?
        defer { ended?.release() }
        return try LockTable.mutex(for: ObjectIdentifier(operation)).withLock(counted: counted) {
            // Reached without a retain: the caller holds the operation, and an `unowned(unsafe)`
            // reference read plainly is retained and released around the access, two atomic
            // operations on each of the operation's trips.
            try Unmanaged.passUnretained(operation)._withUnsafeGuaranteedRef { operation in
                let result = try body(&operation.lockedMachine)
                operation.published.publish(from: &operation.lockedMachine)
                // The machine reads no clock and no thread: what the event's phase records is passed in.
                var reading: UInt64?
                if operation.lockedMachine.awaitedStamp != .none {
                    let now = MonotonicClock.nanoseconds()
                    reading = now
                    operation.lockedMachine.stamp(thread: .current, now: Uptime(nanoseconds: now))
                }
                // Told before unlocking, so that the sinks hear the events in the machine's order;
                // a timeline's recording is stamped with the clock read for the phase, if it was.
                if let log = operation.lockedMachine.sinkMessages {
                    let isLetGo = log._withUnsafeGuaranteedRef { log in
                        log.send(reading: reading)
                        return log.isLetGoOfAtEnd
                    }
                    if isLetGo, let taken = operation.lockedMachine.takeEndedSinkLog() {
                        ended = .passRetained(taken)
                    }
                }
                return result
            }
        }
    }
}
