import Foundation

/// The operation ``ResultOperation/map(_:)`` makes: it runs the transform when it executes, on the
/// output its injection handed it before.
final class MapOperation<Input: Sendable, Output: Sendable>: ResultOperation<Output>, MapNaming,
    @unchecked Sendable
{
    // mutable state: `input`, behind the operation's own lock
    private let transform: @Sendable (Input) throws -> Output
    /// The producer's output, from the injection until `execute()` takes it.
    @exclusivity(unchecked) private var input: Input?
    let mapName: MapName

    init(transform: @escaping @Sendable (Input) throws -> Output, name: MapName) {
        self.transform = transform
        self.mapName = name
        super.init()
        self.name = name.description
    }

    /// Called by the injection, a condition of this operation, before it executes.
    func receive(_ input: Input) {
        withOwnLock { self.input = input }
    }

    override func execute() {
        // The copy keeps the output alive: letting go of the stored one under the lock frees nothing.
        let input = withOwnLock {
            defer { self.input = nil }
            return self.input
        }
        guard let input else {
            // The injection is a condition: the operation executes only once it handed the output over.
            fatalError("\(diagnosticName): executed without its producer's output (S29)")
        }
        do {
            finish(returning: try transform(input))
        } catch {
            finish(error: error)
        }
    }
}
