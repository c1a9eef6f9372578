/// Which of the conditions handed out for evaluation answered (S2: a repeated answer counts once).
///
/// Fewer than 64 conditions are bits in one word, the places of conditions that do not exist set
/// from the start, so the usual operation allocates nothing here and the operation's state machine
/// stays small (the memory target (README, Performance) counts bytes per operation).
public struct AnsweredConditions: Sendable {
    @usableFromInline enum Storage: Sendable {
        case bits(UInt64)
        case flags([Bool])
    }

    @usableFromInline var storage: Storage

    @inlinable public init(count: Int) {
        storage =
            count < 64
            ? .bits(~((1 << UInt64(count)) - 1))
            : .flags(Array(repeating: false, count: count))
    }

    /// The conditions that have not answered yet.
    @inlinable public var unanswered: Int {
        switch storage {
        case .bits(let bits): (~bits).nonzeroBitCount
        case .flags(let flags): flags.count { !$0 }
        }
    }

    /// Marks the condition at `index` answered; `false` if it had answered before or no such
    /// condition was handed out.
    @inlinable mutating func insert(_ index: Int) -> Bool {
        switch storage {
        case .bits(let bits):
            guard (0..<64).contains(index), bits & (1 << UInt64(index)) == 0 else { return false }
            storage = .bits(bits | (1 << UInt64(index)))
            return true
        case .flags(var flags):
            guard flags.indices.contains(index), !flags[index] else { return false }
            flags[index] = true
            storage = .flags(flags)
            return true
        }
    }

    /// Whether the condition at `index` answered.
    @inlinable public func contains(_ index: Int) -> Bool {
        switch storage {
        case .bits(let bits): (0..<64).contains(index) && bits & (1 << UInt64(index)) != 0
        case .flags(let flags): flags.indices.contains(index) && flags[index]
        }
    }
}
