import Foundation

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

/// The actions compare by value, so that the machine's table tests state what each event returns.
/// What has no value of its own compares as the runner uses it: operations, observers' owners and
/// conditions by identity or by count, errors by their description (type and contents). Loose
/// comparisons, fit for tests: the library itself never compares actions.
extension Machine.Effect: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.didStart, .didStart):
            true
        case (.didProduce(let left), .didProduce(let right)):
            left === right
        case (.didCancel(let left), .didCancel(let right)):
            ErrorsByValue.equal(left, right)
        case (
            .finish(let left, let leftExecuted, let leftReleases),
            .finish(let right, let rightExecuted, let rightReleases)
        ):
            ErrorsByValue.equal(left, right) && leftExecuted == rightExecuted
                && leftReleases == rightReleases
        case (.didStart, _), (.didProduce, _), (.didCancel, _), (.finish, _):
            false
        }
    }
}

extension Machine.ReadinessAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.answer(let left, let leftFollowup), .answer(let right, let rightFollowup)):
            left == right && leftFollowup == rightFollowup
        case (.readDependencies(let left), .readDependencies(let right)):
            left == right
        case (.registerDependencies(let left), .registerDependencies(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0 === $1 }
        case (.askConditionDependencies(let left), .askConditionDependencies(let right)),
            (.evaluate(let left), .evaluate(let right)):
            left.count == right.count
        case (.acquire(let left, let leftParent), .acquire(let right, let rightParent)):
            left == right && leftParent === rightParent
        case (.answer, _), (.readDependencies, _), (.registerDependencies, _), (.askConditionDependencies, _),
            (.evaluate, _), (.acquire, _):
            false
        }
    }
}

extension Machine.FinishAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.finishing(let left), .finishing(let right)), (.deferred(let left), .deferred(let right)):
            left == right
        case (.deliverNow(let left, let leftObservers), .deliverNow(let right, let rightObservers)):
            left == right && leftObservers.count == rightObservers.count
        case (.ignored, .ignored):
            true
        case (.finishing, _), (.deliverNow, _), (.deferred, _), (.ignored, _):
            false
        }
    }
}

extension Machine.DeliveryAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.deliver(let left, let leftObservers), .deliver(let right, let rightObservers)):
            left == right && leftObservers.count == rightObservers.count
        case (.execute(let left), .execute(let right)):
            left == right
        case (.drain, .drain), (.done, .done), (.announceStart, .announceStart):
            true
        case (.deliver, _), (.announceStart, _), (.execute, _), (.drain, _), (.done, _):
            false
        }
    }
}

extension Machine.AddEventSinkAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.added(let left), .added(let right)): left == right
        case (.tellFinished(let left), .tellFinished(let right)): ErrorsByValue.equal(left, right)
        case (.added, _), (.tellFinished, _): false
        }
    }
}

extension Machine.AddObserverAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.added, .added): true
        case (.tellFinished(let left), .tellFinished(let right)): ErrorsByValue.equal(left, right)
        case (.added, _), (.tellFinished, _): false
        }
    }
}

/// Errors compared by value: the same count, and each pair with the same type and description.
enum ErrorsByValue {
    static func equal(_ left: [any Error], _ right: [any Error]) -> Bool {
        left.count == right.count
            && zip(left, right).allSatisfy { String(reflecting: $0) == String(reflecting: $1) }
    }
}

extension Machine.EnqueueAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.misuse, .misuse), (.ready, .ready), (.coalesce, .coalesce): true
        case (.held(let left), .held(let right)): left == right
        case (.misuse, _), (.ready, _), (.coalesce, _), (.held, _): false
        }
    }
}
