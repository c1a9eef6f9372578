/// A small deterministic pseudo-random generator (SplitMix64): the same seed gives the same
/// numbers on every platform and toolchain, so a seed replays the same workload shape.
///
/// The helpers below do their own range reduction instead of `Int.random(in:using:)`, whose
/// algorithm the standard library may change.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (multiply-high reduction; the bias is far below what matters here).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next().multipliedFullWidth(by: width).high)
    }

    /// A number in `range`.
    mutating func int(_ range: Range<Int>) -> Int {
        int(range.lowerBound...(range.upperBound - 1))
    }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        int(0..<100) < percent
    }

    /// One of `elements`, which must not be empty.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(0..<elements.count)]
    }

    /// The seed of the `index`th batch of a run started from `base`: well spread, and itself a
    /// valid seed to replay that batch alone.
    static func derive(_ base: UInt64, _ index: Int) -> UInt64 {
        var generator = SplitMix64(seed: base ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}
