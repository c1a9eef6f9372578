import ConditionalOperationsMachines
import Dispatch
import Foundation

/// The runner: the one place that performs what the state machine's actions ask for (conditions,
/// observers, KVO, `execute()`), always outside the operation's lock. Here the steps any action may
/// leave (``Followup``); by concern, the steps towards readiness (`+Readiness`), the delivery of
/// callbacks up to `isFinished` (`+Running`), and each entry point's own action (`+RunActions`).
extension ConditionalOperation {
    typealias Followup = Machine.Followup
    typealias ReadinessAction = Machine.ReadinessAction
    typealias Context = Machine.Context

    /// Takes the steps `followup` asks for, one of each concern, in the order of its fields.
    func perform(_ followup: Followup) {
        if followup.releasesCategories { ExclusivityController.shared.release(for: ObjectIdentifier(self)) }
        switch followup.readiness {
        case nil, .admitted:
            break
        case .handOver(let queue):
            queue.handOver(self)
        case .announce:
            announceReadiness()
        case .reannounceLater:
            // Later, not at once: by then the queue has most likely started it, and a plain
            // queue's every announcement is a scheduling pass over all it holds.
            ReadinessLooks.shared.add(self)
        case .reannounceNow:
            DispatchQueue.global(qos: dispatchQoS).async { self.reannounce() }
        }
        switch followup.delivery {
        case nil: break
        case .deliver: deliverEffects()
        case .announceStart: announceStart()
        }
        switch followup.running {
        case nil:
            break
        case .drain:
            drain()
        case .launchLater:
            DispatchQueue.global(qos: dispatchQoS).async {
                self.perform(self.machine.withLock { $0.launchDeferred() })
            }
        case .executeNow:
            execute()
        }
    }

    var dispatchQoS: DispatchQoS.QoSClass { qualityOfService.dispatchQoSClass }
}
