extension ExclusivityController {
    /// S7 in groups: the categories an operation run by `parent` (its nearest enclosing parent, if
    /// any) requests in place of `categories`.
    ///
    /// A child needing a category its group already holds would wait for the group, which waits
    /// for the child: a deadlock. So a category that an enclosing parent (the nearest one, see
    /// `OperationStateMachine.exclusivityParent`) declares is requested in that parent's scope
    /// instead: siblings still exclude each other, and everything outside waits for the whole
    /// group, which holds the category itself until every child finished. The parent holds one
    /// unit of a category with a limit (S19), and its children share that unit, one at a time:
    /// a scope's limit is 1, so the units in use never exceed the limit. A parent declares the
    /// same categories it holds: its children only run while it executes.
    static func scoped(_ categories: Set<String>, under parent: ConditionalOperation?) -> Set<String> {
        guard var parent else { return categories }
        // A rate limit's permit is spent, not held: a child takes its own (S28), never the group's.
        var requested = categories.filter(CategoryKey.isRate)
        // By line: a limit stated by one and not the other does not make two categories.
        var unresolved = Dictionary(
            categories.subtracting(requested).map { (CategoryKey.line(of: $0), $0) },
            uniquingKeysWith: { a, _ in a })
        while true {
            let (declared, grandparent) = parent.exclusivityScope
            for line in declared.map(CategoryKey.line(of:)) where unresolved.removeValue(forKey: line) != nil
            {
                requested.insert(scopedCategory(line, in: parent))
            }
            guard !unresolved.isEmpty, let grandparent else { break }
            parent = grandparent
        }
        return requested.union(unresolved.values)
    }

    /// The name a user gave a category that may be scoped (``scopedCategory(_:in:)``), or the
    /// name of an ``ExclusivityCategory`` from its key: what diagnostics show.
    static func unscopedName(_ category: String) -> String {
        guard let end = category.utf8.firstIndex(where: { $0 == 0x1F || $0 == 0x1E }) else { return category }
        return String(category[..<end])
    }

    /// The names as the user gave them, sorted: what a log line and a timeline span show.
    static func unscopedNames(_ categories: some Sequence<String>) -> [String] {
        categories.map(unscopedName).sorted()
    }

    /// `category` private to the children of `parent`. A parent outlives its children's
    /// requests (it finishes after them), so its identity can't be reused while they hold it.
    static func scopedCategory(_ category: String, in parent: ConditionalOperation) -> String {
        "\(category)\u{1F}scope \(UInt(bitPattern: ObjectIdentifier(parent)))"
    }
}
