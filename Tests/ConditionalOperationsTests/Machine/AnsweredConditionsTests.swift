import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// S2: each condition's answer counts once, bits for the first 64 and an array beyond.
    @Suite struct AnsweredConditionsTests {
        @Test(arguments: [1, 63, 64, 65, 200])
        func S2_eachConditionAnswersOnce(count: Int) {
            var answered = AnsweredConditions(count: count)
            #expect(answered.unanswered == count)
            let first = (0..<count).map { answered.insert($0) }
            let second = (0..<count).map { answered.insert($0) }
            let outside = [answered.insert(count), answered.insert(-1)]
            #expect(first.allSatisfy { $0 }, "each first answer counts")
            #expect(second.allSatisfy { !$0 }, "a second answer does not")
            #expect(outside == [false, false], "no such condition")
            #expect(answered.unanswered == 0)
        }
    }
}
