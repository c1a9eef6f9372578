// Swift concurrency from top-level code (S14): `untilFinished()`, `run`, `value` and `events`
// compile and run here as they do in async functions. CI runs it: `swift run ConcurrencyExample`.
import ConditionalOperations
import Foundation

let queue = ConditionalOperationQueue()

// `untilFinished()` waits for any operation, holding no thread: a plain one, a group. (Here, at
// top level, `await operation.waitUntilFinished()` would pick Foundation's blocking method, and
// the library stops it with a message naming `untilFinished()`.)
let plain = ConditionalOperation()
plain.name = "plain"
let group = GroupOperation(operations: [ClosureOperation<Void>(name: "child") { $0.finish() }])
queue.addOperations([plain, group], waitUntilFinished: false)
await plain.untilFinished()
await group.untilFinished()
print("plain and group finished:", plain.isFinished && group.isFinished)

// `run` owns the operation and infers its output (an Int here).
let sum = AsyncOperation(name: "sum") { (1...100).reduce(0, +) }
let total = try await queue.run(sum)
print("sum:", total)

// `waitUntilFinished()` on an AsyncOperation is the async one; `value` waits the same way.
let greeting = AsyncOperation(name: "greeting") { "hello" }
queue.addOperation(greeting)
await greeting.untilFinished()
print("greeting:", try await greeting.value)

// Completion-handler work, gated by an async condition.
let fetch = ClosureOperation<[String]>(name: "fetch") { operation in
    DispatchQueue.global().async { operation.finish(returning: ["ada", "grace"]) }
}
fetch.addCondition(AsyncCondition(name: "online") { true })
print("users:", try await queue.run(fetch))

// Every state change and callback of one operation, in order, to its end.
let watched = AsyncOperation(name: "watched") { 42 }
let events = watched.events
queue.addOperation(watched)
for await event in events {
    switch event {
    case .stateChanged(let state): print("event: state", state)
    case .didFinish(let errors): print("event: didFinish, errors:", errors.count)
    default: print("event:", event)
    }
}
