/// The callbacks waiting for the deliverer, first in, first out (S1: callbacks never overlap).
///
/// The thread that queues a callback while nobody delivers becomes the deliverer and delivers
/// until the queue is empty. The first callback is stored inline: an operation's life rarely has
/// two waiting at once, so most operations never allocate here.
public struct EffectQueue: Sendable {
    public typealias Effect = OperationEffect

    // `rest` first: the inline callback's bytes and `isDelivering` then share its last word (the
    // memory target counts bytes per operation).
    @usableFromInline var rest: [Effect]
    @usableFromInline var first: Effect?
    /// A thread is delivering: it will deliver what is queued meanwhile.
    @usableFromInline var isDelivering: Bool

    @inlinable init() {
        self.rest = []
        self.isDelivering = false
    }

    /// Queues `effect`; returns `true` when the caller becomes the deliverer.
    @inlinable mutating func append(_ effect: Effect) -> Bool {
        if first == nil && rest.isEmpty {
            first = effect
        } else {
            rest.append(effect)
        }
        guard !isDelivering else { return false }
        isDelivering = true
        return true
    }

    /// Nothing is queued and nobody delivers: the caller becomes the deliverer and delivers its
    /// callback itself, without queueing it (one trip through the lock fewer).
    @inlinable mutating func beginDeliveringIfIdle() -> Bool {
        guard first == nil, !isDelivering else { return false }
        isDelivering = true
        return true
    }

    /// The start is the next callback: it is announced before it is delivered.
    @inlinable public var startIsNext: Bool {
        if case .didStart = first { return true }
        return false
    }

    /// The start is queued and not yet announced.
    @inlinable public var holdsStart: Bool {
        startIsNext
            || !rest.isEmpty
                && rest.contains {
                    if case .didStart = $0 { return true }
                    return false
                }
    }

    /// The next callback; `nil` when the queue is empty (the deliverer may still have `execute()`
    /// to run, or be done: ``endDelivery()``).
    @inlinable mutating func popFirst() -> Effect? {
        guard let effect = first else { return nil }
        first = rest.isEmpty ? nil : rest.removeFirst()
        return effect
    }

    @inlinable mutating func endDelivery() {
        isDelivering = false
    }
}
