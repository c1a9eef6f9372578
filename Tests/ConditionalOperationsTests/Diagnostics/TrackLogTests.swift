import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S36: an operation's recording keeps marks, not spans; the spans are made of them when
    /// exported. What a replay makes is what the timeline counts against its capacity.
    @Suite struct TrackLogTests {
        struct Refusal: Error {}

        /// One change of an operation, as its recording is told of it.
        enum Change {
            case state(ConditionalOperation.State)
            case detail(TrackLog.Detail)
        }

        struct Satisfied: OperationCondition {
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) { completion(.satisfied) }
        }

        static let condition = Satisfied()

        /// Lives an operation can have, told as its sinks hear them (a state told again, a join,
        /// conditions, a wait for a category and its grant, more changes than are kept in place).
        static let lives: [[Change]] = [
            [],
            [
                .state(.pending), .state(.evaluatingConditions), .state(.ready), .state(.executing),
                .state(.finishing),
            ],
            [
                .state(.pending), .state(.pending), .state(.evaluatingConditions),
                .state(.evaluatingConditions),
            ],
            [
                .detail(.joined(ConditionalOperation.self, name: "other")), .state(.pending),
                .state(.finishing),
            ],
            [.state(.pending), .detail(.joined(ConditionalOperation.self, name: nil)), .state(.ready)],
            [
                .state(.pending), .state(.evaluatingConditions),
                .detail(.condition(condition, .satisfied, began: .now, elapsed: 0)),
                .detail(.condition(condition, .failed(Refusal()), began: .now, elapsed: 0)),
                .detail(.waitingForCategories(["db"], ahead: 2)), .detail(.holding(["db"])),
                .state(.ready), .state(.executing), .state(.finishing),
            ],
            [
                .state(.evaluatingConditions), .detail(.waitingForCategories(["a"], ahead: 1)),
                .detail(.waitingForCategories(["b"], ahead: 0)), .state(.evaluatingConditions),
                .state(.initialized), .state(.ready),
            ],
            [.state(.initialized), .state(.executing), .detail(.holding(["x"])), .state(.executing)],
        ]

        /// Writes `changes`, stamping after each at the next millisecond, and finishes at the end.
        static func log(of changes: [Change], finished: Bool = true) -> TrackLog {
            var log = TrackLog()
            var now: UInt64 = 1_000_000
            for change in changes {
                switch change {
                case .state(let state): log.mark(state)
                case .detail(let detail): log.mark(detail)
                }
                log.stamp(at: now)
                now += 1_000_000
            }
            if finished { log.finished = (now, []) }
            return log
        }

        @Test(arguments: lives.indices)
        func S36_theSpansCountedAsAnOperationFinishesAreTheSpansItsLogMakes(life: Int) {
            let log = Self.log(of: Self.lives[life])
            let contents = log.replay(track: 0)
            #expect(Int(log.spanCount) == contents.closed.count)
            #expect(contents.openSpan == nil && contents.openNested == nil)
        }

        @Test func S36_aLogMakesItsSpansInOrderBeyondTheMarksKeptInPlace() {
            let states: [ConditionalOperation.State] = [
                .pending, .evaluatingConditions, .pending, .evaluatingConditions, .ready, .pending,
                .evaluatingConditions, .ready, .executing, .finishing,
            ]
            let log = Self.log(of: states.map { .state($0) })
            let spans = log.replay(track: 3).closed
            #expect(spans.map(\.kind) == states.compactMap(TimelineSpan.Kind.init))
            #expect(spans.map(\.start) == (1...10).map { UInt64($0) * 1_000_000 })
            #expect(spans.allSatisfy { $0.track == 3 && $0.end == $0.start + 1_000_000 })
        }

        /// A mark waits for its time until the event that made it is over: a replay before then
        /// leaves it out.
        @Test func S36_aMarkNotStampedYetIsNotReplayed() {
            var log = Self.log(of: [.state(.pending)], finished: false)
            log.mark(.evaluatingConditions)
            #expect(!log.isStamped)
            #expect(log.replay(track: 0).openSpan?.kind == .dependencies)
            log.stamp(at: 5_000_000)
            #expect(log.isStamped)
            let contents = log.replay(track: 0)
            #expect(contents.openSpan?.kind == .conditions && contents.openSpan?.start == 5_000_000)
            #expect(contents.closed.map(\.end) == [5_000_000])
        }
    }
}
