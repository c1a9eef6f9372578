/// A mutual-exclusivity category as a value: the object is the category, its name only labels it
/// in diagnostics (S26).
///
/// Two objects are two categories, whatever their names: two modules that both call theirs
/// "uploads" never share a line, and never disagree over a limit. The limit is the object's, so
/// giving one category two limits (a misuse with string categories, S13) cannot happen.
///
/// ```swift
/// let uploads = ExclusivityCategory("uploads", limit: 3)  // one object for every upload
/// let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
/// upload.addCondition(MutuallyExclusive(uploads))  // at most 3 at once
/// ```
///
/// Keep the object where every operation that shares the category can reach it (a `static let`),
/// and make a new one for a new category: operations holding the same object exclude each other
/// as with ``MutuallyExclusive/init(category:limit:)``, across every queue of the process, first
/// come, first served (S7, S19), inside ``AllOf`` and `&&` too, and a group holding it lets its
/// children share it (S7). The object need not outlive the operations using it; the library keeps
/// nothing of a category once no operation holds it or waits for it, so short-lived categories
/// cost nothing after use.
public final class ExclusivityCategory: Sendable, CustomStringConvertible {
    /// The name diagnostics show for it (``OperationDiagnosis``, log records, ``OperationGraph``).
    /// It does not identify the category: the object does.
    public let name: String
    /// How many operations holding the category execute at once (S19): at least 1.
    public let limit: Int
    /// What operations request: the shown name, then this object's serial number and limit, each
    /// after U+001E, which category names do not contain. No serial is given twice in a process,
    /// so the key stays this object's even after the object is gone.
    let key: String

    /// A category of its own, shown as `name`, with at most `limit` holders at once.
    ///
    /// - Parameters:
    ///   - name: for diagnostics only; another object with the same name is another category.
    ///   - limit: how many operations holding it execute at once; at least 1 (S13 otherwise).
    public init(_ name: String, limit: Int = 1) {
        guard limit >= 1 else {
            Misuse.trap("ExclusivityCategory(\"\(name)\", limit: \(limit)): a limit is at least 1 (S19)")
        }
        self.name = name
        self.limit = limit
        let serial = Self.serials.withLock { serial in
            serial += 1
            return serial
        }
        key = "\(Self.shown(name))\(Self.separator)\(serial)\(Self.separator)\(limit)"
    }

    /// Its ``name``.
    public var description: String { name }

    /// The serial numbers given so far.
    private static let serials = Locked<UInt64>(0)

    /// Ends the shown name in a key; scoped keys (`ExclusivityController.scopedCategory`) use U+001F.
    static let separator: Character = "\u{1E}"

    /// `name` without the separators of keys, so that diagnostics show it up to its end and a
    /// string category is never read as a key.
    static func shown(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == 0x1E || $0 == 0x1F }) else { return name }
        var shown = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            shown.append(scalar == "\u{1E}" || scalar == "\u{1F}" ? " " : scalar)
        }
        return String(shown)
    }
}
