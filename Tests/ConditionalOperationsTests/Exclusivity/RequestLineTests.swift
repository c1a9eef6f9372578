import ConditionalOperationsMachines
import Testing

extension ConditionalOperationsTests {
    /// `RequestLine`, the line of one category, without threads: first come, first served (S7,
    /// S19) at a cost per request that does not grow with the requests that passed.
    @Suite struct RequestLineTests {
        final class Request: Equatable {
            let label: String
            var isReleased = false
            init(_ label: String) { self.label = label }
            static func == (lhs: Request, rhs: Request) -> Bool { lhs === rhs }
        }

        static func remove(_ request: Request, from line: inout RequestLine<Request>) -> String? {
            request.isReleased = true
            return line.remove(request, isReleased: \.isReleased)?.label
        }

        @Test func S19_theFirstLimitRequestsAreAdmittedAndTheNextMovesUpInArrivalOrder() {
            var line = RequestLine<Request>(limit: 2)
            let requests = (0..<5).map { Request("r\($0)") }
            for request in requests { line.append(request) }
            #expect(line.admitted.map(\.label) == ["r0", "r1"])
            #expect(line.admits(requests[1]) && !line.admits(requests[2]))
            #expect(Self.remove(requests[3], from: &line) == nil, "a waiting one leaves a gap")
            #expect(line.count == 4)
            #expect(Self.remove(requests[0], from: &line) == "r2")
            #expect(Self.remove(requests[1], from: &line) == "r4", "the gap is skipped")
            #expect(line.line(isReleased: \.isReleased).map(\.label) == ["r2", "r4"])
            #expect(Self.remove(requests[2], from: &line) == nil)
            #expect(Self.remove(requests[4], from: &line) == nil)
            #expect(line.isEmpty && line.count == 0 && line.stored == 0)
        }

        @Test func S19_aLongHolderAtTheFrontCostsTheRequestsPassingItAFewVisitsEach() {
            var line = RequestLine<Request>(limit: 2)
            line.append(Request("long"))
            let count = 10_000
            for index in 0..<count {
                let short = Request("s\(index)")
                line.append(short)
                #expect(line.admits(short))
                _ = Self.remove(short, from: &line)
            }
            #expect(line.stored == 1)
            #expect(line.visits <= 4 * count, "\(line.visits) visits")
        }

        @Test func S19_gapsAreSweptOutOnceTheyOutnumberTheWaitingRequests() {
            var line = RequestLine<Request>(limit: 1)
            let requests = (0..<1_000).map { Request("r\($0)") }
            for request in requests { line.append(request) }
            for request in requests.dropFirst() where !request.label.hasSuffix("0") {
                _ = Self.remove(request, from: &line)
            }
            let waiting = 99  // r10, r20, … r990
            #expect(line.count == 1 + waiting)
            #expect(line.stored - line.count <= max(32, waiting), "\(line.stored - line.count) gaps kept")
            let byLabel = Dictionary(uniqueKeysWithValues: requests.map { ($0.label, $0) })
            var order: [String] = []
            var front = requests[0]
            while let next = Self.remove(front, from: &line), let request = byLabel[next] {
                order.append(next)
                front = request
            }
            #expect(order == (1..<100).map { "r\($0 * 10)" })
            #expect(line.isEmpty)
        }
    }
}
