import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

/// S12 and the memory target (README, Performance): the machine is most of what an operation
/// stores of its own, and counts in every operation's bytes.
@Suite struct MachineLayoutTests {
    /// The observers are kept without an existential (``KeptObserver``): the machine holds none,
    /// and is 30 bytes smaller than when the first observer was stored inline as one (161 bytes).
    @Test func S12_theMachineIsAtMost131BytesWithNoExistentialObserver() {
        #expect(MemoryLayout<Machine>.size <= 131)
        #expect(MemoryLayout<ObserverList>.size <= 17)
    }
}
