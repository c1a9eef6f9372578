import Foundation

/// What an operation's ``ConditionalOperation/events`` stream yields: its state changes and its
/// observer callbacks, in the order they happen (S16).
public enum OperationEvent: Sendable {
    /// The operation entered this state.
    case stateChanged(ConditionalOperation.State)
    /// `operationDidStart`: the operation executes.
    case didStart
    /// `operation(_:didProduce:)`: the operation produced this operation.
    case didProduce(Foundation.Operation)
    /// `operationDidCancel`, with the errors the operation had then.
    case didCancel([any Error])
    /// The operation finished with these errors; the last event of the stream.
    case didFinish([any Error])
}
