import Dispatch

/// Waits a bounded while for something Foundation does a moment after `isFinished` (dropping its
/// references, telling a queue): checks every 10 ms, for at most `seconds`. The caller then asserts.
func waitUntil(seconds: Double = 2, _ condition: () -> Bool) async {
    for _ in 0..<Int(seconds * 100) where !condition() {
        let tick = Latch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { tick.countDown() }
        _ = await tick.wait()
    }
}
