extension Scenario {
    /// Every scenario, in the order they run. A new scenario is one file under `Scenarios/`
    /// plus one line here.
    static let all: [Scenario] = [
        .noopPlain,
        .conditionObserver,
        .chainPlain,
        .noopConditionalQueue,
        .dispatchFloor,
        .operationFloor,
        .chainConditionalQueue,
        .exclusiveConditionalQueue,
        .limitedConditionalQueue,
        .rateLimitedConditionalQueue,
        .exclusiveLongHolder,
        .admissionBesideLongChain,
        .combinedConditions,
        .exclusivePlain,
        .fanIn,
        .fanOut,
        .fanOutConditionalQueue,
        .memory,
        .asyncOperation,
        .concurrentRun,
        .waitUntilIdle,
        .runTaskContext,
        .diagnosis,
        .coalescing,
        .timeline,
        .scaling,
        .blocking,
    ]

    static func named(_ name: String) -> Scenario? {
        all.first { $0.name == name }
    }
}
