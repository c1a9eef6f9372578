import Dispatch

/// Waits a bounded while for something Foundation does a moment after `isFinished` (dropping its
/// references, telling a queue): checks every 10 ms, for at most `seconds` (ten unless told: it
/// returns once the condition holds, and a busy machine delays the checks). The caller then asserts.
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) async {
    for _ in 0..<Int(seconds * 100) where !condition() {
        let tick = Latch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { tick.countDown() }
        _ = await tick.wait()
    }
}
