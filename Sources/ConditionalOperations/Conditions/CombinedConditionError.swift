/// The failure of a combinator (``AllOf``, ``AnyOf``): the errors of each member that failed, in
/// the members' order, nested combinators' failures flattened into them (S18).
///
/// An operation never records it as such: its ``ConditionalOperation/errors`` get each of
/// ``errors`` as an element of its own.
public struct CombinedConditionError: Error, Sendable, CustomStringConvertible {
    /// The combinator's name, `AllOf<a, b>`.
    public let name: String
    /// Each failed member's error, flattened.
    public let errors: [any Error]

    init(name: String, errors: [any Error]) {
        self.name = name
        self.errors = errors.flatMap { error -> [any Error] in
            (error as? CombinedConditionError)?.errors ?? [error]
        }
    }

    /// `condition 'AllOf<a, b>' failed: …; …`.
    public var description: String {
        "condition '\(name)' failed: \(errors.map { "\($0)" }.joined(separator: "; "))"
    }
}
