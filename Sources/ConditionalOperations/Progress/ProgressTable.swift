import Foundation

/// The progress of every operation that was asked for one and has not finished, keyed by the
/// operation.
///
/// Kept here rather than in a stored property: the memory target (README, Performance) leaves an operation about 12 bytes of
/// its memory budget, and most operations never report progress. An operation that never asks
/// costs nothing: no entry, no lock taken, not even when it finishes, because only the observer
/// installed with its progress removes the entry (S12: a finished operation holds nothing).
///
/// An operation released without ever finishing leaves its entry behind; the entry holds the
/// operation weakly, so a new object at the same address is never handed the old progress, and
/// such entries are swept when the table has doubled since the last sweep.
enum ProgressTable {
    private struct Entry {
        weak var operation: ConditionalOperation?
        let progress: Progress
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = 64
    }

    private static let table = Locked(Table())

    /// The progress made for `operation`, if it has one and has not finished.
    static func progress(of operation: ConditionalOperation) -> Progress? {
        table.withLock { table in
            guard let entry = table.entries[ObjectIdentifier(operation)], entry.operation === operation
            else { return nil }
            return entry.progress
        }
    }

    /// Records `progress` for `operation` unless another thread recorded one first; returns the
    /// progress that is recorded now, and whether it is `progress`.
    static func insert(_ progress: Progress, for operation: ConditionalOperation) -> (
        Progress, inserted: Bool
    ) {
        var swept: [Entry] = []
        let result = table.withLock { table -> (Progress, inserted: Bool) in
            let key = ObjectIdentifier(operation)
            if let entry = table.entries[key], entry.operation === operation {
                return (entry.progress, false)
            }
            if let stale = table.entries.updateValue(
                Entry(operation: operation, progress: progress), forKey: key)
            {
                swept.append(stale)
            }
            if table.entries.count >= table.sweepAt {
                for (key, entry) in table.entries where entry.operation == nil {
                    swept.append(table.entries.removeValue(forKey: key)!)
                }
                table.sweepAt = max(64, table.entries.count * 2)
            }
            return (progress, true)
        }
        withExtendedLifetime(swept) {}  // released unlocked: a progress's deinit is Foundation's code
        return result
    }

    /// `operation` finished: forgets its progress.
    static func remove(_ operation: ConditionalOperation) {
        let removed = table.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(operation)) }
        withExtendedLifetime(removed) {}
    }

    /// Whether `operation` has an entry (for tests: S12, and that asking nothing makes nothing).
    static func contains(_ operation: ConditionalOperation) -> Bool {
        table.withLock { $0.entries[ObjectIdentifier(operation)]?.operation === operation }
    }
}
