extension Array {
    /// Appends `other`, taking its buffer when this array is empty: `append(contentsOf:)` on the
    /// empty array allocates a buffer even for no element, which the machines' error lists would
    /// pay at every finish, most of which has no error.
    @inlinable
    package mutating func append(sharing other: [Element]) {
        if isEmpty { self = other } else if !other.isEmpty { append(contentsOf: other) }
    }
}
