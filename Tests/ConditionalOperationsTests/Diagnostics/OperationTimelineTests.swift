import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S36: a timeline records every operation's life as spans with their reasons, exported as the
    /// Trace Event Format and as one self-contained page; without one attached nothing is recorded.
    @Suite struct OperationTimelineTests {
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "refused" }
        }

        /// A run with a dependency, a satisfied condition, an exclusive category and a failure.
        static func recordedRun() async -> OperationTimeline {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let first = AsyncOperation(name: "first") {}
            let checked = AsyncOperation(name: "checked") {}
            checked.addDependency(first)
            checked.addCondition(BlockCondition(name: "always") { true })
            let exclusive = AsyncOperation(name: "exclusive") {}
            exclusive.addCondition(MutuallyExclusive(category: "OperationTimelineTests"))
            let failing = AsyncOperation(name: "failing") { throw Refusal() }
            queue.addOperations([checked, first, exclusive, failing], waitUntilFinished: false)
            for operation in [first, checked, exclusive, failing] { await operation.untilFinished() }
            return timeline
        }

        /// A timeline on a clock the test sets (`now`, in nanoseconds), attached to a new queue.
        static func onFakeClock() -> (
            now: Locked<UInt64>, timeline: OperationTimeline, queue: ConditionalOperationQueue
        ) {
            let now = Locked<UInt64>(0)
            let timeline = OperationTimeline(capacity: 100) { now.withLock { $0 } }
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            return (now, timeline, queue)
        }

        /// `warnings` are one, naming `operations`, its description beginning with `prefix`, and
        /// the page shows `fragment` of it.
        static func expectOne(
            _ warnings: [OperationTimeline.Warning], naming operations: [String], saying prefix: String,
            page: String, showing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(warnings.count == 1, sourceLocation: sourceLocation)
            #expect(warnings.first?.operations == operations, sourceLocation: sourceLocation)
            #expect(warnings.first?.description.hasPrefix(prefix) == true, sourceLocation: sourceLocation)
            #expect(page.contains(fragment), sourceLocation: sourceLocation)
        }

        /// The one slot warning of the tests where "group" waits and "beside" waits for its slot.
        static func expectGroupHoldsTheSlotBeside(
            _ timeline: OperationTimeline, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            expectOne(
                timeline.warnings.filter { $0.kind == .slotHeldByWaitingComposite },
                naming: ["GroupOperation 'group'", "AsyncOperation<()> 'beside'"],
                saying:
                    "GroupOperation 'group' holds a slot while nothing it runs executes, and 1 operation(s) "
                    + "beside it have waited a second or more for one: AsyncOperation<()> 'beside'.",
                page: timeline.html(), showing: "holds a slot while nothing it runs executes",
                sourceLocation: sourceLocation)
        }

        static func events(of timeline: OperationTimeline) throws -> [[String: Any]] {
            let document = try JSONSerialization.jsonObject(with: timeline.traceEventJSON()) as? [String: Any]
            return try #require(document?["traceEvents"] as? [[String: Any]])
        }

        @Test func S36_theTraceEventJSONKeepsTheFormat() async throws {
            let timeline = await Self.recordedRun()
            let events = try Self.events(of: timeline)
            let names = Dictionary(
                uniqueKeysWithValues: events.filter { $0["name"] as? String == "thread_name" }.map {
                    ($0["tid"] as? Int ?? 0, ($0["args"] as? [String: Any])?["name"] as? String ?? "")
                })
            #expect(names.count == 4)
            let spans = events.filter { $0["ph"] as? String == "X" }
            for span in spans {
                let ts = try #require(span["ts"] as? Double)
                let dur = try #require(span["dur"] as? Double)
                #expect(ts >= 0 && dur >= 0)
                #expect(span["pid"] as? Int == 1 && span["cat"] is String && span["name"] is String)
                #expect(names[span["tid"] as? Int ?? 0] != nil, "a span on a track with no name")
            }
            // Per track, the top-level spans follow one another and the nested ones lie inside one.
            let nestedKinds: Set<String> = [
                TimelineSpan.Kind.condition.rawValue, TimelineSpan.Kind.categories.rawValue,
            ]
            for tid in names.keys {
                let track = spans.filter { $0["tid"] as? Int == tid }
                let top = track.filter { !nestedKinds.contains($0["cat"] as? String ?? "") }
                    .map { ($0["ts"] as? Double ?? 0, $0["dur"] as? Double ?? 0) }
                for (earlier, later) in zip(top, top.dropFirst()) {
                    #expect(earlier.0 + earlier.1 <= later.0 + 1, "overlapping spans on \(names[tid] ?? "")")
                }
                for nested in track where nestedKinds.contains(nested["cat"] as? String ?? "") {
                    let start = nested["ts"] as? Double ?? -1
                    let end = start + (nested["dur"] as? Double ?? 0)
                    #expect(
                        top.contains { $0.0 <= start + 1 && end <= $0.0 + $0.1 + 1 }, "\(nested) in no span")
                }
            }
            // The reasons: the dependency, the condition and its answer, the category, the ending.
            let tracks = Dictionary(grouping: spans) { names[$0["tid"] as? Int ?? 0] ?? "" }
            let checked = tracks["AsyncOperation<()> 'checked'"] ?? []
            #expect(checked.contains { $0["cat"] as? String == "waiting for dependencies" })
            #expect(checked.contains { $0["name"] as? String == "always: satisfied" })
            #expect(tracks.values.joined().contains { $0["cat"] as? String == "executing" })
            let endings = events.filter { $0["ph"] as? String == "i" }
            #expect(endings.count == 4)
            #expect(endings.contains { $0["name"] as? String == "failed with 1 error(s)" })
        }

        @Test func S36_withoutATimelineNothingIsRecorded() async {
            let queue = ConditionalOperationQueue()
            let before = AsyncOperation {}
            queue.addOperation(before)
            await before.untilFinished()
            let timeline = OperationTimeline()
            queue.timeline = timeline
            let after = AsyncOperation {}
            queue.addOperation(after)
            await after.untilFinished()
            queue.timeline = nil
            let detached = AsyncOperation {}
            queue.addOperation(detached)
            await detached.untilFinished()
            #expect(timeline.operationCount == 1)
        }

        @Test func S36_spansBeyondTheCapacityAreDroppedOldestFirstAndCounted() async throws {
            let timeline = OperationTimeline(capacity: 3)
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            for _ in 0..<3 {
                let operation = AsyncOperation {}
                queue.addOperation(operation)
                await operation.untilFinished()
            }
            let spans = try Self.events(of: timeline).filter { $0["ph"] as? String == "X" }
            #expect(spans.count == 3)
            #expect(timeline.droppedSpans > 0)
            // The newest are kept: the last operation's execution among them.
            #expect(spans.contains { $0["tid"] as? Int == 3 && $0["cat"] as? String == "executing" })
        }

        /// The rows are kept in chunks: each operation keeps its own row, and its spans name it,
        /// across the chunks' edges.
        @Test func S36_eachOfManyOperationsKeepsItsOwnRowAndItsSpans() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let operations = (0..<2_500).map { index in AsyncOperation(name: "\(index)") {} }
            queue.addOperations(operations, waitUntilFinished: false)
            for operation in operations { try await operation.untilFinished(timeout: .seconds(10)) }
            let snapshot = timeline.snapshot()
            #expect(snapshot.tracks.rows.map(\.givenName) == operations.map(\.name))
            #expect(
                snapshot.tracks.rows.allSatisfy { $0.finished != nil && $0.executed })
            let executed = snapshot.spans.filter { $0.span.kind == .executing }.map(\.span.track)
            #expect(executed.sorted() == Array(operations.indices))
        }

        /// Memory stays within the capacity while a timeline stays attached (a server's): an
        /// operation's row goes once its spans all were dropped, a chunk of rows at a time, and
        /// what the exports show of the rest is whole.
        @Test func S36_theRowsOfOperationsWhoseSpansWereAllDroppedAreLetGoOf() async throws {
            let timeline = OperationTimeline(capacity: 10)
            let queue = ConditionalOperationQueue()
            // One at a time: the operations finish in the order they were added, and the spans
            // kept are the last ones'.
            queue.maxConcurrentOperationCount = 1
            queue.timeline = timeline
            let count = 3 * TrackTable.chunkSize
            let operations = (0..<count).map { index in AsyncOperation(name: "\(index)") {} }
            queue.addOperations(operations, waitUntilFinished: false)
            for operation in operations { try await operation.untilFinished(timeout: .seconds(10)) }
            #expect(timeline.operationCount == count)
            let snapshot = timeline.snapshot()
            // At least the first two chunks are gone: only the last operations' spans are kept.
            #expect(snapshot.tracks.keptCount <= TrackTable.chunkSize)
            #expect(!snapshot.tracks.contains(0))
            let kept = Set(snapshot.spans.map(\.span.track))
            #expect(kept.allSatisfy { snapshot.tracks.contains($0) }, "a kept span lost its row")
            let events = try Self.events(of: timeline)
            #expect(events.contains { $0["ph"] as? String == "X" })
            #expect(
                timeline.html().contains(
                    "\(snapshot.tracks.keptCount) operations (of \(count) recorded) over"))
        }

        @Test func S36_anOperationExecutingFarLongerThanTheRestIsWarnedAbout() async {
            let (now, timeline, queue) = Self.onFakeClock()
            let quick = AsyncOperation {}
            queue.addOperation(quick)
            await quick.untilFinished()
            let stuck = ProbeOperation(.never)
            stuck.name = "stuck"
            queue.addOperation(stuck)
            #expect(await stuck.executing.wait())
            #expect(timeline.warnings.isEmpty)
            now.withLock { $0 = 2_000_000_000 }
            let warnings = timeline.warnings
            #expect(warnings.map(\.kind) == [.executingWithoutFinishing])
            #expect(warnings.first?.operations == ["ProbeOperation 'stuck'"])
            #expect(
                warnings.first?.description.contains("has been executing for 2.0 s without finishing") == true
            )
            #expect(timeline.html().contains("has been executing for 2.0 s"))
            stuck.cancel()
            await stuck.untilFinished()
            #expect(timeline.warnings.isEmpty)
        }

        /// A running operation keeps its spans until it finishes: an export meanwhile shows those
        /// it ended (its condition, its wait for a slot) and its open one, and they stay once it
        /// finished and they joined the timeline's.
        @Test func S36_aRunningOperationsSpansAreExportedBeforeAndAfterItFinishes() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let running = ProbeOperation(.never)
            running.addCondition(BlockCondition(name: "allowed") { true })
            queue.addOperation(running)
            #expect(await running.executing.wait())
            func spans() throws -> [(kind: String, open: Bool)] {
                try Self.events(of: timeline).filter { $0["ph"] as? String == "X" }.map {
                    ($0["cat"] as? String ?? "", ($0["args"] as? [String: Any])?["open"] as? Bool ?? false)
                }
            }
            let whileRunning = try spans()
            #expect(whileRunning.contains { $0.kind == "condition" && !$0.open })
            #expect(whileRunning.contains { $0.kind == "waiting for a slot" && !$0.open })
            #expect(whileRunning.contains { $0.kind == "executing" && $0.open })
            running.finish()
            await running.untilFinished()
            let afterwards = try spans()
            #expect(afterwards.count == whileRunning.count + 1)  // its finishing
            #expect(afterwards.allSatisfy { !$0.open })
            #expect(afterwards.contains { $0.kind == "executing" })
        }

        /// Each operation's spans are read under its own lock while it runs and under the
        /// timeline's once it finished: an export taken while operations finish sees each span
        /// once, never in neither place nor in both.
        @Test func S36_anExportTakenWhileOperationsFinishSeesEachSpanOnce() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let operations = (0..<400).map { _ in AsyncOperation {} }
            let exports = Task.detached {
                var seen = 0
                while operations.contains(where: { !$0.isFinished }) {
                    let snapshot = timeline.snapshot()
                    let tracks = snapshot.spans.filter { $0.span.kind == .executing }.map(\.span.track)
                    let twice = tracks.count - Set(tracks).count
                    #expect(twice == 0, "executions exported twice")
                    let missing = snapshot.tracks.indices.filter {
                        snapshot.tracks[$0].finished != nil && snapshot.tracks[$0].executed
                    }.filter { !tracks.contains($0) }
                    #expect(missing.isEmpty, "finished operations' executions missing")
                    seen += 1
                }
                return seen
            }
            queue.addOperations(operations, waitUntilFinished: false)
            for operation in operations { try await operation.untilFinished(timeout: .seconds(10)) }
            _ = await exports.value
            let executions = timeline.snapshot().spans.filter { $0.span.kind == .executing }
            #expect(executions.count == operations.count)
            #expect(executions.allSatisfy { !$0.isOpen })
        }

        /// Exports taken while operations finish past the capacity, the rows of those whose spans
        /// were all dropped made gone meanwhile on the timeline's queue: each span exported has
        /// its row, and no execution is exported twice.
        @Test func S36_anExportTakenWhileRowsAreMadeGoneShowsARowForEachSpan() async throws {
            let timeline = OperationTimeline(capacity: 40)
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let operations = (0..<(3 * TrackTable.chunkSize)).map { _ in AsyncOperation {} }
            let exports = Task.detached {
                var seen = 0
                while operations.contains(where: { !$0.isFinished }) {
                    let snapshot = timeline.snapshot()
                    let lost = snapshot.spans.filter { !snapshot.tracks.contains($0.span.track) }
                    #expect(lost.isEmpty, "spans exported without their rows")
                    let executions = snapshot.spans.filter { $0.span.kind == .executing }.map(\.span.track)
                    #expect(executions.count == Set(executions).count, "executions exported twice")
                    #expect(timeline.html().contains("</html>"))
                    seen += 1
                }
                return seen
            }
            queue.addOperations(operations, waitUntilFinished: false)
            for operation in operations { try await operation.untilFinished(timeout: .seconds(10)) }
            _ = await exports.value
            #expect(timeline.droppedSpans > 0)
            let snapshot = timeline.snapshot()
            #expect(snapshot.spans.allSatisfy { snapshot.tracks.contains($0.span.track) })
            #expect(snapshot.tracks.keptCount < operations.count)
        }

        /// "holder" acquires its category, then waits for the queue's one slot, which "busy" holds;
        /// "waiter", needing the same category, waits for "holder" to let it go: warned about,
        /// naming both, until the slot frees.
        @Test func S36_aCategoryHeldWhileItsHolderWaitsForASlotIsWarnedAbout() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.timeline = timeline
            let busy = ProbeOperation(.never)
            queue.addOperation(busy)
            #expect(await busy.executing.wait())
            let holder = AsyncOperation(name: "holder") {}
            holder.addCondition(MutuallyExclusive(category: "S36 held while waiting"))
            queue.addOperation(holder)
            try await holder.waitUntil(.ready, timeout: .seconds(10))
            // Of this kind only: "busy" is warned about too once it executed for a second.
            func held() -> [OperationTimeline.Warning] {
                timeline.warnings.filter { $0.kind == .categoryHeldWhileWaiting }
            }
            #expect(held().isEmpty)  // nobody waits for what it holds
            let waiter = AsyncOperation(name: "waiter") {}
            waiter.addCondition(MutuallyExclusive(category: "S36 held while waiting"))
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) { !held().isEmpty }
            Self.expectOne(
                held(), naming: ["AsyncOperation<()> 'holder'", "AsyncOperation<()> 'waiter'"],
                saying:
                    "AsyncOperation<()> 'holder' holds 'S36 held while waiting' while waiting for a slot, "
                    + "and 1 operation(s) wait for it: AsyncOperation<()> 'waiter'.",
                page: timeline.html(), showing: "holds 'S36 held while waiting' while waiting for a slot")
            busy.finish()
            await waiter.untilFinished()
            #expect(timeline.warnings.isEmpty)
        }

        /// "holder" holds its category and goes on executing after its cancel (it does not end
        /// when cancelled); "waiter" needs the category: warned about a second after the cancel,
        /// naming both, until the holder finishes.
        @Test func S36_aWaiterBehindACancelledHolderIsWarnedAbout() async throws {
            let (now, timeline, queue) = Self.onFakeClock()
            let holder = ProbeOperation(.never, finishesWhenCancelled: false)
            holder.name = "holder"
            holder.addCondition(MutuallyExclusive(category: "S36 behind a cancelled one"))
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            let waiter = AsyncOperation(name: "waiter") {}
            waiter.addCondition(MutuallyExclusive(category: "S36 behind a cancelled one"))
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) {
                timeline.snapshot().spans.contains { $0.isOpen && $0.span.kind == .categories }
            }
            // How many were ahead of it in the category's line as it began to wait: the holder.
            let wait = try #require(
                try Self.events(of: timeline).first { $0["cat"] as? String == "waiting for categories" })
            #expect(wait["name"] as? String == "waiting for S36 behind a cancelled one (1 ahead)")
            #expect((wait["args"] as? [String: Any])?["ahead"] as? Int == 1)
            func behind() -> [OperationTimeline.Warning] {
                timeline.warnings.filter { $0.kind == .waitingBehindCancelled }
            }
            #expect(behind().isEmpty)  // its holder was not cancelled
            holder.cancel()
            await waitUntil(seconds: 10) { timeline.snapshot().held.contains { $0.cancelledAt != nil } }
            #expect(behind().isEmpty)  // cancelled, not yet a second ago
            now.withLock { $0 = 2_000_000_000 }
            Self.expectOne(
                behind(), naming: ["ProbeOperation 'holder'", "AsyncOperation<()> 'waiter'"],
                saying: "1 operation(s) wait for 'S36 behind a cancelled one', which ProbeOperation 'holder' "
                    + "still holds, cancelled 2.0 s ago: AsyncOperation<()> 'waiter'.",
                page: timeline.html(), showing: "still holds, cancelled 2.0 s ago")
            holder.finish()
            await waiter.untilFinished()
            #expect(timeline.warnings.isEmpty)
        }

        /// A group holds the queue's one slot while its child waits for a condition; "beside"
        /// waits for the slot: warned about once it waited a second, naming both, until the child
        /// runs.
        @Test func S36_aSlotHeldByACompositeThatWaitsIsWarnedAbout() async throws {
            let (now, timeline, queue) = Self.onFakeClock()
            queue.maxConcurrentOperationCount = 1
            let gate = ManualCondition(name: "gate")
            let child = AsyncOperation(name: "child") {}
            child.addCondition(gate)
            let group = GroupOperation(operations: [child])
            group.name = "group"
            queue.addOperation(group)
            try await gate.waitUntilEvaluated(timeout: .seconds(10))
            let beside = AsyncOperation(name: "beside") {}
            queue.addOperation(beside)
            try await beside.waitUntil(.ready, timeout: .seconds(10))
            func held() -> [OperationTimeline.Warning] {
                timeline.warnings.filter { $0.kind == .slotHeldByWaitingComposite }
            }
            #expect(held().isEmpty)  // "beside" has not waited a second
            now.withLock { $0 = 2_000_000_000 }
            Self.expectGroupHoldsTheSlotBeside(timeline)
            gate.answer(.satisfied)
            await beside.untilFinished()
            #expect(timeline.warnings.isEmpty)
        }

        /// A rate limit's permit is spent when taken: a cancelled holder that goes on running
        /// frees none as it ends, and those waiting for a permit wait for time, not for it.
        @Test func S36_aCancelledHolderOfARatePermitIsNotWarnedAbout() async throws {
            let (now, timeline, queue) = Self.onFakeClock()
            let rate = RateLimit("S36 spent permit", permits: 1, per: .seconds(600))
            let holder = ProbeOperation(.never, finishesWhenCancelled: false)
            holder.addCondition(rate)
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            let waiter = AsyncOperation(name: "waiter") {}
            waiter.addCondition(rate)
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) {
                timeline.snapshot().spans.contains { $0.isOpen && $0.span.kind == .categories }
            }
            holder.cancel()
            await waitUntil(seconds: 10) { timeline.snapshot().held.contains { $0.cancelledAt != nil } }
            now.withLock { $0 = 2_000_000_000 }
            #expect(!timeline.warnings.contains { $0.kind == .waitingBehindCancelled })
            waiter.cancel()
            holder.finish()
            await waiter.untilFinished()
        }

        /// A group running an operation the timeline does not record (a `BlockOperation`) may be
        /// running it: not warned about as a composite holding a slot while it waits.
        @Test func S36_aGroupRunningAnUnrecordedOperationIsNotWarnedAboutAsWaiting() async throws {
            let (now, timeline, queue) = Self.onFakeClock()
            queue.maxConcurrentOperationCount = 1
            let started = Latch()
            let release = DispatchSemaphore(value: 0)
            let group = GroupOperation(operations: [
                BlockOperation {
                    started.countDown()
                    release.wait()
                }
            ])
            queue.addOperation(group)
            #expect(await started.wait())
            let beside = AsyncOperation(name: "beside") {}
            queue.addOperation(beside)
            try await beside.waitUntil(.ready, timeout: .seconds(10))
            now.withLock { $0 = 2_000_000_000 }
            #expect(!timeline.warnings.contains { $0.kind == .slotHeldByWaitingComposite })
            release.signal()
            await beside.untilFinished()
        }

        /// Once the operations it runs that the timeline does not record finished, a group that
        /// waits is warned about again: what it still runs, the timeline sees.
        @Test func S36_aGroupWhoseUnrecordedOperationsFinishedIsWarnedAboutAsWaiting() async throws {
            let (now, timeline, queue) = Self.onFakeClock()
            queue.maxConcurrentOperationCount = 1
            let plain = BlockOperation {}
            let gate = ManualCondition(name: "gate")
            let child = AsyncOperation(name: "child") {}
            child.addCondition(gate)
            child.addDependency(plain)
            let group = GroupOperation(operations: [plain, child])
            group.name = "group"
            queue.addOperation(group)
            try await gate.waitUntilEvaluated(timeout: .seconds(10))
            await waitUntil(seconds: 10) {
                timeline.snapshot().tracks.rows.allSatisfy { $0.unrecordedRunning == 0 }
            }
            let beside = AsyncOperation(name: "beside") {}
            queue.addOperation(beside)
            try await beside.waitUntil(.ready, timeout: .seconds(10))
            now.withLock { $0 = 2_000_000_000 }
            Self.expectGroupHoldsTheSlotBeside(timeline)
            gate.answer(.satisfied)
            await beside.untilFinished()
        }

        /// Waiting for a slot of another queue is not waiting beside a composite, though one
        /// timeline records both queues.
        @Test func S36_aSlotWaitOnAnotherQueueIsNotBesideAComposite() async throws {
            let now = Locked<UInt64>(0)
            let timeline = OperationTimeline(capacity: 100) { now.withLock { $0 } }
            let queues = (ConditionalOperationQueue(), ConditionalOperationQueue())
            for queue in [queues.0, queues.1] {
                queue.maxConcurrentOperationCount = 1
                queue.timeline = timeline
            }
            let gate = ManualCondition(name: "gate")
            let child = AsyncOperation(name: "child") {}
            child.addCondition(gate)
            let group = GroupOperation(operations: [child])
            queues.0.addOperation(group)
            try await gate.waitUntilEvaluated(timeout: .seconds(10))
            let busy = ProbeOperation(.never)
            queues.1.addOperation(busy)
            #expect(await busy.executing.wait())
            let elsewhere = AsyncOperation(name: "elsewhere") {}
            queues.1.addOperation(elsewhere)
            try await elsewhere.waitUntil(.ready, timeout: .seconds(10))
            now.withLock { $0 = 2_000_000_000 }
            #expect(!timeline.warnings.contains { $0.kind == .slotHeldByWaitingComposite })
            gate.answer(.satisfied)
            busy.finish()
            await elsewhere.untilFinished()
            await group.untilFinished()
        }

        /// S27: an operation that joined another waits for it in a span of its own, naming it,
        /// from being added until the one it joined finished.
        @Test func S36_aJoinIsRecordedAsAWaitForTheOperationJoined() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let first = CountedFetch(key: "S36 join")
            first.name = "first"
            queue.addOperation(first)
            #expect(await first.executing.wait())
            let joiner = CountedFetch(key: "S36 join")
            joiner.name = "joiner"
            queue.addOperation(joiner)
            #expect(joiner.coalescedInto === first)
            func joins() throws -> [[String: Any]] {
                try Self.events(of: timeline).filter { $0["cat"] as? String == "joined another" }
            }
            let whileJoined = try joins()
            #expect(whileJoined.count == 1)
            #expect(whileJoined.first?["name"] as? String == "joined CountedFetch 'first'")
            #expect((whileJoined.first?["args"] as? [String: Any])?["open"] as? Bool == true)
            first.release()
            await joiner.untilFinished()
            let afterwards = try joins()
            #expect(afterwards.count == 1)
            #expect(
                (afterwards.first?["args"] as? [String: Any])?["joined"] as? String == "CountedFetch 'first'")
            let joinerTrack = try #require(afterwards.first?["tid"] as? Int)
            let waits = try Self.events(of: timeline).filter {
                $0["tid"] as? Int == joinerTrack && $0["cat"] as? String == "waiting for dependencies"
            }
            #expect(waits.isEmpty)  // the join is its wait, not a wait for dependencies
            #expect(timeline.html().contains("<rect class=\"joined\""))
        }

        /// How each recorded operation ended, by name, from the JSON's instant events.
        static func endings(of timeline: OperationTimeline) throws -> [String: String] {
            let events = try Self.events(of: timeline)
            let names = Dictionary(
                uniqueKeysWithValues: events.filter { $0["name"] as? String == "thread_name" }.map {
                    ($0["tid"] as? Int ?? 0, ($0["args"] as? [String: Any])?["name"] as? String ?? "")
                })
            return Dictionary(
                uniqueKeysWithValues: events.filter { $0["ph"] as? String == "i" }.map {
                    (names[$0["tid"] as? Int ?? 0] ?? "", $0["name"] as? String ?? "")
                })
        }

        @Test func S36_eachEndingIsNamed_cancelledBeforeItWasAddedSkippedOrFailed() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let early = AsyncOperation(name: "early") {}
            early.cancel()  // before the timeline saw it: no `didCancel` reaches it
            let skipped = AsyncOperation(name: "skipped") {}
            skipped.addCondition(SkippingCondition(BlockCondition { false }))
            let refused = AsyncOperation(name: "refused") {}
            refused.addCondition(BlockCondition { false })
            let done = AsyncOperation(name: "done") {}
            queue.addOperations([early, skipped, refused, done], waitUntilFinished: false)
            for operation in [early, skipped, refused, done] { await operation.untilFinished() }
            let endings = try Self.endings(of: timeline)
            #expect(endings["AsyncOperation<()> 'early'"] == "cancelled")
            #expect(endings["AsyncOperation<()> 'skipped'"] == "finished without executing")
            #expect(endings["AsyncOperation<()> 'refused'"] == "failed with 1 error(s)")
            #expect(endings["AsyncOperation<()> 'done'"] == "finished")
        }

        /// An operation that finished, cancelled, before it was recorded (a composite's inner
        /// operation can): its track says so, though its recording ended at once.
        @Test func S36_anOperationRecordedAfterItFinishedCancelledEndsCancelled() async throws {
            let timeline = OperationTimeline()
            let gone = AsyncOperation(name: "gone") {}
            gone.cancel()
            gone.start()
            await gone.untilFinished()
            timeline.record(gone)
            #expect(try Self.endings(of: timeline)["AsyncOperation<()> 'gone'"] == "cancelled")
        }

        /// A condition that runs `whenLetGo` in its deinit, then counts `released` down: one that
        /// takes a lock there (reads the timeline, an operation's state), let go of under that
        /// lock, waits for it forever (checked: the run hangs there).
        final class RunsWhenLetGo: OperationCondition {
            let whenLetGo: @Sendable () -> Void
            let released: Latch
            init(_ released: Latch, _ whenLetGo: @escaping @Sendable () -> Void) {
                self.whenLetGo = whenLetGo
                self.released = released
            }
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                completion(.satisfied)
            }
            deinit {
                whenLetGo()
                released.countDown()
            }
        }

        /// A timeline its queue let go of lives on in the operations it still records; the last of
        /// them to finish lets go of it, and of what its spans hold (a condition of an operation
        /// that finished earlier), outside its own lock.
        @Test func S36_aTimelineLetGoOfByItsQueueIsLetGoOfOutsideTheLastOperationsLock() async throws {
            let queue = ConditionalOperationQueue()
            let last = ProbeOperation(.never)
            let released = Latch()
            do {
                let timeline = OperationTimeline()
                queue.timeline = timeline
                queue.addOperation(last)
                #expect(await last.executing.wait())
                let first = AsyncOperation {}
                first.addCondition(RunsWhenLetGo(released) { [unowned last] in _ = last.state })
                queue.addOperation(first)
                try await first.untilFinished(timeout: .seconds(10))
                queue.timeline = nil
            }
            // On a thread of its own: under its lock, the release would wait for it forever.
            Thread.detachNewThread { last.finish() }
            #expect(await released.wait(seconds: 10), "the condition's release waited for the lock held")
        }

        /// An operation recorded, then let go of before it finished, ends its recording: what the
        /// timeline recorded is let go of once both are, whichever goes first. (A queue keeps what
        /// it admitted until it finished; a composite's inner operations are recorded as they are
        /// made, and may never run.)
        @Test(arguments: [true, false])
        func S36_anOperationLetGoOfUnfinishedLetsGoOfWhatItsTimelineRecorded(timelineFirst: Bool) async throws
        {
            weak var timeline: OperationTimeline?
            weak var storage: TimelineStorage?
            var operation: ConditionalOperation? = ConditionalOperation()
            do {
                let recording = OperationTimeline()
                (timeline, storage) = (recording, recording.storage)
                recording.record(try #require(operation))
                #expect(recording.operationCount == 1)
                if !timelineFirst { operation = nil }
            }
            #expect(timeline == nil)
            operation = nil
            await waitUntil(seconds: 10) { storage == nil }
            #expect(storage == nil, "what the timeline recorded outlived the operation it recorded")
        }

        /// A timeline let go of lets go of what it recorded at once, though the release of spans
        /// it dropped beyond its capacity is due on its queue: that release holds nothing of it.
        @Test func S36_aTimelineLetGoOfLetsGoOfWhatItRecordedAtOnce() async throws {
            let released = Latch()
            let queue = ConditionalOperationQueue()
            do {
                let timeline = OperationTimeline(capacity: 1)
                queue.timeline = timeline
                let first = AsyncOperation(name: "first") {}
                first.addCondition(RunsWhenLetGo(released) {})
                // Its finish drops the first's spans: their release is due a moment later.
                let second = AsyncOperation(name: "second") {}
                second.addDependency(first)
                queue.addOperations([first, second], waitUntilFinished: false)
                try await second.untilFinished(timeout: .seconds(10))
                #expect(timeline.droppedSpans > 0)
                queue.timeline = nil
            }
            #expect(released.remaining == 0, "what the timeline recorded waited for its queue's release")
        }

        /// A timeline past its capacity let go of while the operations it records finish (a finish
        /// may schedule the release of what it dropped, and its end may be the last): what it
        /// recorded goes once, after the last of them ended, whichever comes first.
        @Test func S36_aTimelineLetGoOfWhileItsOperationsFinishGoesAfterTheLast() async throws {
            for round in 0..<200 {
                let queue = ConditionalOperationQueue()
                weak var storage: TimelineStorage?
                var operations: [AsyncOperation<Void>] = []
                do {
                    let timeline = OperationTimeline(capacity: 1)
                    storage = timeline.storage
                    queue.timeline = timeline
                    operations = (0..<8).map { _ in AsyncOperation {} }
                    queue.addOperations(operations, waitUntilFinished: false)
                    // Let go of before, while or after they finish.
                    for operation in operations.prefix(round % 9) {
                        try await operation.untilFinished(timeout: .seconds(10))
                    }
                    queue.timeline = nil
                }
                for operation in operations { try await operation.untilFinished(timeout: .seconds(10)) }
                await waitUntil(seconds: 10) { storage == nil }
                #expect(storage == nil, "what the timeline recorded outlived its operations (round \(round))")
            }
        }

        /// The operations a timeline records do not hold it: it is let go of once its queue and its
        /// user let go of it, while they run. What it recorded lives on until the last of them
        /// ended, and is let go of then. (Each operation held the timeline, and each thread adding
        /// or finishing one wrote its count.)
        @Test func S36_runningOperationsHoldNotTheTimelineRecordingThem() async throws {
            weak var timeline: OperationTimeline?
            weak var storage: TimelineStorage?
            let queue = ConditionalOperationQueue()
            let running = ProbeOperation(.never)
            do {
                let recording = OperationTimeline()
                (timeline, storage) = (recording, recording.storage)
                queue.timeline = recording
                queue.addOperation(running)
                #expect(await running.executing.wait())
                queue.timeline = nil
            }
            #expect(timeline == nil, "a running operation holds the timeline recording it")
            #expect(storage != nil, "what the timeline recorded went while an operation records into it")
            running.finish()
            try await running.untilFinished(timeout: .seconds(10))
            await waitUntil(seconds: 10) { storage == nil }
            #expect(storage == nil, "what the timeline recorded outlived the last operation it recorded")
        }

        /// A condition that holds the operation it was given to.
        struct HoldsItsOperation: OperationCondition {
            let operation: ConditionalOperation
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) { completion(.satisfied) }
        }

        /// The timeline keeps what a finished operation's spans hold (its conditions), not the
        /// operation: one whose condition holds it is let go of once the timeline is.
        @Test func S36_anOperationWhoseConditionHoldsItIsLetGoOfWithItsTimeline() async throws {
            weak var finished: AsyncOperation<Void>?
            weak var timeline: OperationTimeline?
            do {
                let recording = OperationTimeline()
                timeline = recording
                let queue = ConditionalOperationQueue()
                queue.timeline = recording
                let operation = AsyncOperation {}
                operation.addCondition(HoldsItsOperation(operation: operation))
                finished = operation
                queue.addOperation(operation)
                try await operation.untilFinished(timeout: .seconds(10))
                queue.timeline = nil
            }
            await waitUntil(seconds: 10) { timeline == nil && finished == nil }
            #expect(timeline == nil, "the timeline was never let go of")
            #expect(finished == nil, "the operation, its recording and its condition hold each other")
        }

        /// An operation finishing takes none of the locks of the thread adding operations: here
        /// a recorded operation finishes on another thread while the rows' lock is held (one lock
        /// for rows and spans made every finish wait for every add, and the other way round).
        @Test func S36_anOperationFinishesWhileTheRowsAreBeingAddedTo() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let executing = Locked<ClosureOperation<Void>?>(nil)
            let started = Latch()
            let operation = ClosureOperation<Void>(name: "finished later") { operation in
                executing.withLock { $0 = operation }
                started.countDown()
            }
            // Once it is finished: its observers are told before, its recording after.
            let finished = DispatchSemaphore(value: 0)
            operation.completionBlock = { finished.signal() }
            queue.addOperation(operation)
            #expect(await started.wait(seconds: 10), "the operation never executed")
            let running = try #require(executing.withLock { $0 })
            let finishedMeanwhile = timeline.storage.tracks.withLock { _ in
                DispatchQueue.global().async { running.finish(returning: ()) }
                return finished.wait(timeout: .now() + 10) == .success
            }
            #expect(finishedMeanwhile, "finishing waited for the rows' lock")
            try await operation.untilFinished(timeout: .seconds(10))
            let spans = try Self.events(of: timeline).filter { $0["ph"] as? String == "X" }
            #expect(spans.contains { $0["cat"] as? String == "executing" })
        }

        /// Adding an operation takes a lock of its own, not the rows' lock, which the timeline's
        /// queue holds while it lets go of the rows of operations whose spans were all dropped:
        /// here an operation is added and runs while the rows' lock is held, and is listed after.
        @Test func S36_anOperationIsAddedWhileTheRowsAreBeingLetGoOf() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let operation = AsyncOperation(name: "added meanwhile") {}
            let addedMeanwhile = timeline.storage.tracks.withLock { _ in
                let added = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    queue.addOperation(operation)
                    added.signal()
                }
                return added.wait(timeout: .now() + 10) == .success
            }
            #expect(addedMeanwhile, "adding an operation waited for the rows' lock")
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(timeline.operationCount == 1)
            let rows = timeline.snapshot().tracks.rows
            #expect(rows.map(\.givenName) == ["added meanwhile"])
            #expect(rows.first?.executed == true)
        }

        @Test func S36_whatADroppedSpanHeldIsLetGoOfOutsideTheTimelinesLock() async throws {
            // Room for the first operation's spans: its condition's is dropped only once the
            // operation let go of the condition, by the spans of the operations after it.
            let timeline = OperationTimeline(capacity: 6)
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let released = Latch()
            weak var first: AsyncOperation<Void>?
            do {
                let operation = AsyncOperation {}
                operation.addCondition(RunsWhenLetGo(released) { _ = timeline.droppedSpans })
                first = operation
                queue.addOperation(operation)
                try await operation.untilFinished(timeout: .seconds(10))
            }
            await waitUntil(seconds: 10) { first == nil }
            #expect(first == nil, "the first operation was never let go of")
            for _ in 0..<3 {
                let next = AsyncOperation {}
                queue.addOperation(next)
                try await next.untilFinished(timeout: .seconds(10))
            }
            #expect(await released.wait(seconds: 10), "the dropped span's condition was never let go of")
            #expect(timeline.droppedSpans > 0)
        }

        @Test func S36_aGroupsChildrenAndARetrysAttemptsAreRecordedUnderThem() async throws {
            let timeline = OperationTimeline()
            let queue = ConditionalOperationQueue()
            queue.timeline = timeline
            let group = GroupOperation(operations: [AsyncOperation(name: "child 1") {}])
            group.name = "sync"
            group.addOperation(AsyncOperation(name: "child 2") {})
            let attempts = Locked(0)
            let retry = RetryOperation<Void>(maximumAttempts: 2, backoff: .constant(.zero)) { number in
                AsyncOperation(name: "attempt \(number)") {
                    if attempts.withLock({
                        $0 += 1
                        return $0
                    }) == 1 {
                        throw Refusal()
                    }
                }
            }
            retry.name = "upload"
            queue.addOperations([group, retry], waitUntilFinished: false)
            await group.untilFinished()
            await retry.untilFinished()
            let names = try Self.events(of: timeline).filter { $0["name"] as? String == "thread_name" }
                .compactMap {
                    ($0["args"] as? [String: Any])?["name"] as? String
                }
            #expect(names.contains("AsyncOperation<()> 'child 1' (in GroupOperation 'sync')"))
            #expect(names.contains("AsyncOperation<()> 'child 2' (in GroupOperation 'sync')"))
            #expect(names.contains("AsyncOperation<()> 'attempt 1' (in RetryOperation<()> 'upload')"))
            #expect(names.contains("AsyncOperation<()> 'attempt 2' (in RetryOperation<()> 'upload')"))
            // On the page, each nested row follows its composite, indented.
            let page = timeline.html()
            let group1 = try #require(page.range(of: ">GroupOperation 'sync'<"))
            let child1 = try #require(page.range(of: "x=\"18\" y=\"34\">AsyncOperation&lt;()&gt; 'child 1'"))
            #expect(group1.upperBound < child1.lowerBound)
        }

        @Test func S36_thePageIsSelfContainedWithARowPerOperation() async {
            let page = await Self.recordedRun().html()
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            #expect(page.components(separatedBy: "<text class=\"label\"").count - 1 == 4)
            #expect(page.contains("<rect class=\"executing\""))
            #expect(page.contains("<title>always: satisfied"))
            #expect(!page.contains("<script"))
            #expect(!page.contains("src="))
            #expect(!page.contains("href="))
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S34_aCapacityBelowOneStopsTheProgram() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = OperationTimeline(capacity: 0)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("OperationTimeline(capacity: 0)"))
                #expect(message.contains("S34"))
            }
        #endif
    }
}
