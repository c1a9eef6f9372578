/// The effects waiting for the deliverer, first in, first out. The first one is stored inline:
/// an operation's life rarely has two waiting at once, so most operations never allocate here.
struct EffectQueue {
    typealias Effect = OperationStateMachine.Effect

    private var first: Effect?
    private var rest: [Effect] = []

    mutating func append(_ effect: Effect) {
        if first == nil && rest.isEmpty {
            first = effect
        } else {
            rest.append(effect)
        }
    }

    mutating func popFirst() -> Effect? {
        guard let effect = first else { return nil }
        first = rest.isEmpty ? nil : rest.removeFirst()
        return effect
    }
}
