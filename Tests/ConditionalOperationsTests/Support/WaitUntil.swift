import Dispatch

/// Waits a bounded while for something Foundation does a moment after `isFinished` (dropping its
/// references, telling a queue): checks every 10 ms, for at most 2 s. The caller then asserts.
func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<200 where !condition() {
        let tick = Latch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { tick.countDown() }
        _ = await tick.wait()
    }
}
