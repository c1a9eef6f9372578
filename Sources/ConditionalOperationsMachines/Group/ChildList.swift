import Foundation

/// The children a group was given, in the order they were added, each once: a child added with
/// `addOperation(_:)` is seen again when the group's queue adds it, and is not listed twice.
package struct ChildList {
    package private(set) var all: [Foundation.Operation] = []
    private var listed: Set<ObjectIdentifier> = []

    package init() {}

    package mutating func append(_ child: Foundation.Operation) {
        guard listed.insert(ObjectIdentifier(child)).inserted else { return }
        all.append(child)
    }
}
