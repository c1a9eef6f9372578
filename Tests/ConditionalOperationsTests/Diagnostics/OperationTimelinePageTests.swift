import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// S36: the page of a scripted run on a fake clock, compared with the page it must be: where
    /// each row and bar is drawn, in which colour, with which reason on hover.
    @Suite struct OperationTimelinePageTests {
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "refused" }
        }

        /// Two operations over 10 ms: "fetch" waits 2 ms for a slot and executes 6 ms; "save",
        /// run inside it, waits for "fetch" 4 ms, for the category "db" 2 ms, then fails.
        static func scriptedTimeline() -> OperationTimeline {
            let now = Locked<UInt64>(0)
            let timeline = OperationTimeline(capacity: 100) { now.withLock { $0 } }
            func at(_ milliseconds: UInt64, _ step: () -> Void) {
                now.withLock { $0 = milliseconds * 1_000_000 }
                step()
            }
            // Sent to under one lock, as an operation sends to its sinks under its own.
            func track(_ name: String, parent: Int?) -> TrackRecording {
                timeline.storage.addTrack(
                    lockedBy: ObjectIdentifier(timeline), type: ConditionalOperation.self, name: name,
                    parent: parent)
            }
            func send(_ recording: TrackRecording, _ event: OperationEvent) {
                recording.withOperationLock { recording.send(event) }
            }
            func send(_ recording: TrackRecording, _ event: LogEvent) {
                recording.withOperationLock { recording.send(event) }
            }
            let fetch = track("fetch", parent: nil)
            let save = track("save", parent: fetch.track)
            at(0) { send(fetch, .stateChanged(.ready)) }
            at(0) { send(save, .stateChanged(.pending)) }
            at(2) { send(fetch, .stateChanged(.executing)) }
            at(4) { send(save, .stateChanged(.evaluatingConditions)) }
            at(4) { send(save, .waitingForCategories(["db"], ahead: 1)) }
            at(6) { send(save, .acquiredCategories(["db"], since: .now)) }
            at(6) { send(save, .stateChanged(.ready)) }
            at(8) { send(fetch, .stateChanged(.finished)) }
            at(8) { send(fetch, .didFinish([])) }
            at(10) { send(save, .stateChanged(.finished)) }
            at(10) { send(save, .didFinish([Refusal()])) }
            return timeline
        }

        /// The page's drawing, one element a line, without the `<svg>` element itself.
        static func drawing(of page: String) throws -> [String] {
            let start = try #require(page.range(of: "aria-label=\"operation timeline\">"))
            let end = try #require(page.range(of: "</svg>"))
            return page[start.upperBound..<end.lowerBound]
                .replacingOccurrences(of: "</text>", with: "</text>\n")
                .replacingOccurrences(of: "</rect>", with: "</rect>\n")
                .replacingOccurrences(of: "</circle>", with: "</circle>\n")
                .split(separator: "\n").map(String.init)
        }

        @Test func S36_aScriptedRunDrawsThePageItMustBe() throws {
            let page = Self.scriptedTimeline().html()
            #expect(
                page.contains("<p>2 operations over 10.000 ms; 0 spans dropped to stay within capacity.</p>"))
            let expected = [
                #"<text class="label" x="4" y="14">ConditionalOperation 'fetch'<title>ConditionalOperation 'fetch'</title></text>"#,
                #"<rect class="slot" x="360" y="3" width="192" height="10"><title>waiting for a slot, 2.000 ms</title></rect>"#,
                #"<rect class="executing" x="552" y="3" width="576" height="10"><title>executing, 6.000 ms</title></rect>"#,
                #"<circle class="end" cx="1128" cy="8" r="3"><title>finished</title></circle>"#,
                #"<text class="label" x="18" y="34">ConditionalOperation 'save'<title>ConditionalOperation 'save'</title></text>"#,
                #"<rect class="dependencies" x="360" y="23" width="384" height="10"><title>waiting for dependencies, 4.000 ms</title></rect>"#,
                #"<rect class="categories" x="744" y="33" width="192" height="5"><title>waiting for db (1 ahead), 2.000 ms</title></rect>"#,
                #"<rect class="conditions" x="744" y="23" width="192" height="10"><title>evaluating conditions, 2.000 ms</title></rect>"#,
                #"<rect class="slot" x="936" y="23" width="384" height="10"><title>waiting for a slot, 4.000 ms</title></rect>"#,
                #"<circle class="end failed" cx="1320" cy="28" r="3"><title>failed with 1 error(s): refused</title></circle>"#,
            ]
            #expect(try Self.drawing(of: page) == expected)
        }
    }
}
