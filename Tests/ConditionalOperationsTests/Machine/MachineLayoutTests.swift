import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

/// S12 and the memory target (README, Performance): the machine is most of what an operation
/// stores of its own, and counts in every operation's bytes.
@Suite struct MachineLayoutTests {
    /// The observers are references (``ObserverList``): the machine holds no existential, which
    /// also keeps it 32 bytes smaller than when the first observer was stored inline.
    @Test func S12_theMachineIsAtMost129BytesWithItsObserversAsReferences() {
        #expect(MemoryLayout<Machine>.size <= 129)
        #expect(MemoryLayout<ObserverList>.size == 16)
    }
}
