import Foundation
import Testing

@testable import ConditionalOperations

/// OperationGraph: nodes, edges from dependency to dependent, labels, styles, escaping for DOT
/// and Mermaid, a queue's graph and the same text for the same graph. States are held still by
/// operations that never finish on their own and by suspended queues, not by waiting.
extension ConditionalOperationsTests {
    @Suite struct OperationGraphTests {
        static func named<T: Foundation.Operation>(_ operation: T, _ name: String) -> T {
            operation.name = name
            return operation
        }

        /// a → b → c on a running queue: a executes until told to finish, b and c wait for their
        /// dependencies; c has a condition and a category.
        struct Chain {
            let queue = ConditionalOperationQueue()
            let a = named(ProbeOperation(.never), "a")
            let b = named(ProbeOperation(), "b")
            let c = named(ProbeOperation(), "c")
            let done: Latch

            init() {
                c.addCondition(BlockCondition(name: "disk is free") { true })
                c.addCondition(MutuallyExclusive(category: "disk"))
                b.addDependency(a)
                c.addDependency(b)
                done = completionLatch([a, b, c])
            }

            func start() async -> Bool {
                queue.add([a, b, c])
                return await a.executing.wait()
            }

            func finish() async -> Bool {
                a.finish()
                return await done.wait()
            }
        }

        @Test func aChainShowsEveryOperationWithItsStateConditionAndCategory() async {
            let chain = Chain()
            #expect(await chain.start())
            let graph = OperationGraph([chain.c])

            #expect(
                graph.nodes.map(\.name) == ["ProbeOperation 'a'", "ProbeOperation 'b'", "ProbeOperation 'c'"])
            #expect(graph.nodes.map(\.state) == [.executing, .pending, .pending])
            #expect(graph.nodes.map(\.dependencies) == [[], [0], [1]])
            #expect(graph.nodes[2].conditions == ["disk is free"])
            #expect(graph.nodes[2].categories == ["disk"])
            #expect(graph.nodes.map(\.style) == [.executing, .pending, .pending])

            let dot = graph.dot
            #expect(dot.hasPrefix("// dependency -> dependent"))
            #expect(dot.contains("digraph operations {"))
            #expect(dot.contains("n0 [label=\"ProbeOperation 'a'\\nexecuting\\nexecuting"))
            #expect(dot.contains("n1 [label=\"ProbeOperation 'b'\\npending\\nwaiting for 1 dependency:"))
            #expect(
                dot.contains(
                    "n2 [label=\"ProbeOperation 'c'\\npending\\nconditions: disk is free\\ncategories: disk\\n"
                ))
            #expect(dot.contains("    n0 -> n1;\n    n1 -> n2;\n"))
            #expect(!dot.contains("n1 -> n0") && !dot.contains("n2 -> n1"))
            #expect(dot.contains("fillcolor=\"\(OperationGraph.Style.executing.fill)\""))
            #expect(dot.hasSuffix("}\n"))

            let mermaid = graph.mermaid
            #expect(mermaid.hasPrefix("flowchart LR\n    %% dependency --> dependent"))
            #expect(mermaid.contains("n0[\"ProbeOperation 'a'<br>executing<br>executing"))
            #expect(
                mermaid.contains(
                    "n2[\"ProbeOperation 'c'<br>pending<br>conditions: disk is free<br>categories: disk<br>"))
            #expect(mermaid.contains("    n0 --> n1\n    n1 --> n2\n"))
            #expect(!mermaid.contains("n1 --> n0") && !mermaid.contains("n2 --> n1"))
            #expect(mermaid.contains("    class n0 executing\n"))
            #expect(mermaid.contains("    class n1,n2 pending\n"))

            #expect(await chain.finish())
        }

        @Test func finishedFailedAndCancelledOperationsHaveTheirOwnStyleAndNoReason() async {
            let queue = ConditionalOperationQueue()
            let succeeded = Self.named(BlockOperation {}, "succeeded")
            let failed = Self.named(ProbeOperation(.finishWith([TestError(1)])), "failed")
            let done = completionLatch([succeeded, failed])
            queue.add([succeeded, failed])
            #expect(await done.wait())
            await waitUntil { succeeded.isFinished && failed.isFinished }
            let cancelled = Self.named(ProbeOperation(), "cancelled")
            cancelled.cancel()
            let waiting = Self.named(ProbeOperation(), "waiting")
            waiting.addDependency(succeeded)
            waiting.addDependency(failed)
            _ = waiting.isReady  // with both dependencies finished, an `isReady` query admits it

            let graph = OperationGraph([waiting, cancelled])
            let byName = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.name, $0) })
            #expect(byName["BlockOperation 'succeeded'"]?.style == .finished)
            #expect(byName["BlockOperation 'succeeded'"]?.reason == nil)
            #expect(byName["ProbeOperation 'failed'"]?.style == .failed)
            #expect(byName["ProbeOperation 'failed'"]?.lines.dropFirst().first == "finished, failed")
            #expect(byName["ProbeOperation 'cancelled'"]?.style == .cancelled)
            #expect(
                byName["ProbeOperation 'cancelled'"]?.lines.dropFirst().first?.hasSuffix(", cancelled")
                    == true)
            #expect(byName["ProbeOperation 'waiting'"]?.reason == "ready, waiting for its queue to start it")
            #expect(byName["ProbeOperation 'waiting'"]?.dependencies.count == 2)
            #expect(graph.dot.contains("style=\"rounded,filled,dashed\""))
            #expect(
                graph.mermaid.contains(
                    "classDef cancelled fill:#ffcdd2,stroke:#c62828,color:#000000,stroke-dasharray:5 3"))
        }

        @Test func labelsAreEscapedForEachFormat() {
            let name = "say \"hi\" \\ <b>\nnext line # 100% & `tick`\r\nend\tof it"
            let operation = Self.named(ProbeOperation(), name)
            operation.addCondition(BlockCondition(name: "a \"quoted\" condition") { true })
            let graph = OperationGraph([operation])

            let dot = graph.dot
            #expect(
                dot.contains(
                    #"n0 [label="ProbeOperation 'say \"hi\" \\ <b>\nnext line # 100% & `tick`\nend of it'\n"#)
            )
            #expect(dot.contains(#"\nconditions: a \"quoted\" condition\n"#))
            // Every statement stays on its line: no line break of a name reaches the text as one.
            for line in dot.split(separator: "\n") where line.hasPrefix("    n") {
                #expect(line.hasSuffix(";"))
            }

            let mermaid = graph.mermaid
            #expect(
                mermaid.contains(
                    "n0[\"ProbeOperation 'say #quot;hi#quot; \\ #lt;b#gt;<br>next line #35; 100#37; #amp; #96;tick#96;"
                        + "<br>end of it'<br>"))
            #expect(mermaid.contains("<br>conditions: a #quot;quoted#quot; condition<br>"))
            for line in mermaid.split(separator: "\n") where line.hasPrefix("    n0[") {
                #expect(line.hasSuffix("\"]"))
                #expect(line.dropFirst("    n0[\"".count).dropLast(2).contains("\"") == false)
            }
        }

        /// A suspended queue: `first` is ready and handed to Foundation, the others held back.
        static func suspendedQueue() -> (ConditionalOperationQueue, [Foundation.Operation]) {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let first = named(ProbeOperation(), "first")
            let second = named(ProbeOperation(), "second")
            let third = named(ProbeOperation(), "third")
            let plain = named(BlockOperation {}, "plain")
            third.addCondition(MutuallyExclusive(category: "store"))
            second.addDependency(first)
            third.addDependency(second)
            plain.addDependency(first)
            queue.add([first, second, third, plain])
            return (queue, [first, second, third, plain])
        }

        @Test func aQueuesGraphShowsTheOperationsItHoldsBackAndThoseFoundationHolds() async {
            let (queue, operations) = Self.suspendedQueue()
            let done = completionLatch(operations)
            let graph = OperationGraph(queue: queue)

            #expect(graph.nodes.count == 4)
            #expect(graph.nodes[0].name == "ProbeOperation 'first'")
            #expect(graph.nodes[0].state == .ready)
            #expect(graph.nodes[0].reason == "ready, but its queue is suspended")
            let byName = Dictionary(uniqueKeysWithValues: graph.nodes.enumerated().map { ($1.name, $0) })
            let first = byName["ProbeOperation 'first'"]
            let second = byName["ProbeOperation 'second'"]
            #expect(graph.nodes[byName["ProbeOperation 'third'"]!].dependencies == [second!])
            #expect(graph.nodes[byName["ProbeOperation 'third'"]!].categories == ["store"])
            #expect(graph.nodes[second!].dependencies == [first!])
            #expect(graph.nodes[byName["BlockOperation 'plain'"]!].dependencies == [first!])
            #expect(graph.omitted == 0)

            let limited = OperationGraph(queue: queue, limit: 2)
            #expect(limited.nodes.count == 2)
            #expect(limited.omitted == 2)
            #expect(limited.dot.contains("omitted [label=\"2 more operations not shown (limit reached)\""))
            #expect(limited.mermaid.contains("omitted[\"2 more operations not shown (limit reached)\"]"))

            queue.isSuspended = false
            #expect(await done.wait())
        }

        @Test func theSameGraphGivesTheSameText() async {
            let (queue, operations) = Self.suspendedQueue()
            let (twin, twinOperations) = Self.suspendedQueue()
            let done = completionLatch(operations + twinOperations)

            let graph = OperationGraph(queue: queue)
            #expect(graph.dot == OperationGraph(queue: queue).dot)
            #expect(graph.mermaid == OperationGraph(queue: queue).mermaid)
            // Other objects in another queue, held back in another order: the same text.
            #expect(graph.dot == OperationGraph(queue: twin).dot)
            #expect(graph.mermaid == OperationGraph(queue: twin).mermaid)
            // The order the operations are given in does not move a chain's ids.
            let chain = Array(operations.prefix(3))
            #expect(OperationGraph(chain).dot == OperationGraph(chain.reversed()).dot)
            #expect(OperationGraph(chain).mermaid == OperationGraph([chain[2]]).mermaid)

            queue.isSuspended = false
            twin.isSuspended = false
            #expect(await done.wait())
        }

        @Test func aDependencyCycleIsShownOnceAndTheReadingEnds() {
            let a = Self.named(BlockOperation {}, "a")
            let b = Self.named(BlockOperation {}, "b")
            a.addDependency(b)
            b.addDependency(a)
            defer { a.removeDependency(b) }  // let go of the cycle's references

            let graph = OperationGraph([a])
            #expect(graph.nodes.map(\.name) == ["BlockOperation 'b'", "BlockOperation 'a'"])
            #expect(graph.dot.contains("n0 -> n1;") && graph.dot.contains("n1 -> n0;"))
        }

        /// The samples of the documentation comments, as written there.
        @Test func theDocumentationSamplesCompileAndWork() async throws {
            let queue = ConditionalOperationQueue()
            let fetch = Self.named(ProbeOperation(), "fetch")
            let store = Self.named(BlockOperation {}, "store")
            store.addDependency(fetch)
            let done = completionLatch([fetch, store])
            queue.isSuspended = true
            queue.add([fetch, store])  // addOperations(_:waitUntilFinished:) is unavailable in async code
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("OperationGraphTests-\(UUID().uuidString).dot").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try OperationGraph(queue: queue).dot.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains("n0 -> n1;"))

            let (upload, notify) = (ProbeOperation(), BlockOperation {})
            let markdown = "```mermaid\n\(OperationGraph([upload, notify]).mermaid)```\n"
            #expect(markdown.contains("n1[\"BlockOperation<br>"))

            queue.isSuspended = false
            #expect(await done.wait())
        }

        @Test func escapingKeepsOrdinaryTextAndReplacesControlCharacters() {
            #expect(OperationGraph.dotEscaped("plain é ✓") == "plain é ✓")
            #expect(OperationGraph.dotEscaped("a\rb\r\nc\u{7}") == "a\\nb\\nc ")
            #expect(OperationGraph.mermaidEscaped("plain é ✓ [x] (y) {z} |w|") == "plain é ✓ [x] (y) {z} |w|")
            #expect(OperationGraph.mermaidEscaped("a\rb\r\nc\u{7}") == "a<br>b<br>c ")
        }
    }
}
