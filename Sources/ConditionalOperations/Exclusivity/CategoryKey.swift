import ConditionalOperationsMachines

/// How the keys conditions give (`mutuallyExclusiveCategories`) read: which line each names, and
/// the limit or rate it states.
///
/// A key carries its limit or rate, so that making a condition records nothing: the exclusivity
/// machine learns a category's limit or a name's rate when an operation first asks for it, and
/// finds another one given later then, naming the operation (S13). The shown name comes first,
/// then fields each after U+001E, which shown names do not contain (``ExclusivityCategory/shown(_:)``):
///
/// - `name`: a string category (``MutuallyExclusive/init(category:)``, a user's own condition):
///   the process's limit for it, 1 unless another was given;
/// - `name␞limit␞3`: a string category with a stated limit (``MutuallyExclusive/init(category:limit:)``);
/// - `name␞serial␞3`: an ``ExclusivityCategory``, a line of its own whatever its name;
/// - `name␞rate␞10␞1000000000`: a ``RateLimit``, 10 permits per second;
/// - anything with U+001F: a category scoped to a group's children
///   (`ExclusivityController.scopedCategory(_:in:)`), limit 1.
enum CategoryKey {
    typealias Need = ExclusivityStateMachine.Need

    /// What `key` asks for. Asked of every key an operation requests, so it reads the bytes in
    /// place (a native string is contiguous) and splits nothing.
    static func need(of key: String) -> Need {
        if let need = key.utf8.withContiguousStorageIfAvailable({ need(of: key, bytes: $0) }) { return need }
        var contiguous = key
        contiguous.makeContiguousUTF8()
        return contiguous.utf8.withContiguousStorageIfAvailable { need(of: key, bytes: $0) }
            ?? .category(line: key, limit: .unstated)
    }

    private static func need(of key: String, bytes: UnsafeBufferPointer<UInt8>) -> Need {
        // A plain name, the common case, is one pass that finds neither separator.
        guard let first = bytes.firstIndex(where: { $0 == 0x1E || $0 == 0x1F }) else {
            return .category(line: key, limit: .unstated)
        }
        if bytes[first...].contains(0x1F) { return .category(line: key, limit: .own(1)) }  // a group's scope
        // Where the first three U+001E are.
        var separators = (first, -1, -1)
        var count = 1
        var index = first + 1
        while let next = bytes[index...].firstIndex(of: 0x1E) {
            count += 1
            switch count {
            case 2: separators.1 = next
            case 3: separators.2 = next
            default: return .category(line: key, limit: .unstated)
            }
            index = next + 1
        }
        guard count >= 2 else { return .category(line: key, limit: .unstated) }
        let kind = UnsafeBufferPointer(rebasing: bytes[(separators.0 + 1)..<separators.1])
        if count == 3 {
            guard matches(kind, rateField),
                let permits = number(UnsafeBufferPointer(rebasing: bytes[(separators.1 + 1)..<separators.2])),
                permits >= 1, permits <= UInt64(Int.max),
                let interval = number(UnsafeBufferPointer(rebasing: bytes[(separators.2 + 1)...]))
            else { return .category(line: key, limit: .unstated) }
            // An offset into native UTF-8 is found without walking the bytes before it.
            let end = key.utf8.index(key.utf8.startIndex, offsetBy: separators.1)
            return .rate(line: Substring(key.utf8[..<end]), permits: Int(permits), interval: interval)
        }
        guard let limit = number(UnsafeBufferPointer(rebasing: bytes[(separators.1 + 1)...])), limit >= 1,
            limit <= UInt64(Int.max)
        else { return .category(line: key, limit: .unstated) }
        guard matches(kind, limitField) else { return .category(line: key, limit: .own(Int(limit))) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<separators.0]), as: UTF8.self)
        return .category(line: name, limit: .stated(Int(limit)))
    }

    /// Whether `bytes` are those of `field`.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ field: StaticString) -> Bool {
        field.withUTF8Buffer { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// The decimal number `digits` spell, if they spell one that fits.
    private static func number(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(digit - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// The line `key` names: two keys naming one line are one category (or one rate limit),
    /// whatever limit each states.
    static func line(of key: String) -> String {
        switch need(of: key) {
        case .category(let line, _): line
        case .rate(let line, _, _): String(line)
        }
    }

    /// Whether `key` is a rate limit's.
    static func isRate(_ key: String) -> Bool {
        need(of: key).isRate
    }

    /// A string category `name` with the limit `limit` stated.
    static func stating(_ limit: Int, of name: String) -> String {
        "\(name)\(ExclusivityCategory.separator)\(limitField)\(ExclusivityCategory.separator)\(limit)"
    }

    /// The rate limit `name`, `permits` per `interval` nanoseconds.
    static func rate(named name: String, permits: Int, interval: UInt64) -> String {
        let separator = ExclusivityCategory.separator
        return "\(name)\(separator)\(rateField)\(separator)\(permits)\(separator)\(interval)"
    }

    /// The line of the rate limit `name`: apart from every category's, a string category of the
    /// same name included.
    static func rateLine(named name: String) -> String {
        "\(name)\(ExclusivityCategory.separator)\(rateField)"
    }

    private static let limitField: StaticString = "limit"
    private static let rateField: StaticString = "rate"
}
