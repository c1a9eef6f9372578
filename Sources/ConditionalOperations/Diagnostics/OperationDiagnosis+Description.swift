import Foundation

extension OperationDiagnosis.Reason: CustomStringConvertible {
    /// One readable line, saying what to look at when it waits too long.
    public var description: String {
        switch self {
        case .notEnqueued:
            return "not added to a queue or started yet"
        case .group(let group):
            return "waiting for its group \(group) to start"
        case .dependencies(let dependencies):
            let count = dependencies.count == 1 ? "1 dependency" : "\(dependencies.count) dependencies"
            let list = dependencies.map { "\($0.name) (\($0.state))" }.joined(separator: ", ")
            return "waiting for \(count): \(list)"
        case .dependencyCycle(let names):
            let cycle = (names + names.prefix(1)).joined(separator: " → ")
            return
                "part of a dependency cycle: \(cycle); none of them can start (cancel one, or remove a dependency)"
        case .cycleBroken(let names):
            let cycle = (names + names.prefix(1)).joined(separator: " → ")
            return "finished without executing: part of the dependency cycle \(cycle), which its queue broke"
        case .conditions(let unanswered, let waited):
            let names = unanswered.isEmpty ? "" : "; not answered: \(unanswered.joined(separator: ", "))"
            return "evaluating conditions for \(Self.seconds(waited))\(names)"
                + (waited >= Self.long ? " (a condition must call its completion exactly once)" : "")
        case .categories(let waits, let waited):
            let list = waits.map { wait in
                if let rate = wait.rateLimit {
                    let next =
                        rate.nextPermit > 0
                        ? "next permit in \(Self.seconds(rate.nextPermit))" : "a permit is free"
                    return
                        "rate limit '\(wait.category)' (\(rate.permits) per \(Self.interval(rate.interval)); "
                        + "\(next), \(wait.ahead) ahead)"
                }
                let holder = wait.holder.map { "held by \($0), " } ?? ""
                return "'\(wait.category)' (\(holder)\(wait.ahead) ahead)"
            }
            let what = waits.allSatisfy { $0.rateLimit != nil } ? "a permit" : "exclusivity"
            return "waiting \(Self.seconds(waited)) for \(what): \(list.joined(separator: ", "))"
        case .start(let status):
            switch status {
            case .unknown, .starting: return "ready, waiting for its queue to start it"
            case .suspended: return "ready, but its queue is suspended"
            case .atConcurrencyLimit(let limit):
                return
                    "ready, but its queue already runs its limit of \(limit) operation\(limit == 1 ? "" : "s")"
            }
        case .executing(nil):
            return "executing"
        case .executing(let seconds?):
            return "executing for \(Self.seconds(seconds))"
                + (seconds >= Self.long
                    ? " (it finishes only when it calls finish(); check every path of execute())" : "")
        case .attempt(let number, let diagnosis):
            return "running attempt \(number): \(diagnosis)"
        case .betweenAttempts(let number):
            return "attempt \(number) ended; the next one starts after the back-off's wait"
        case .children:
            return "started without executing; waiting for its children to finish"
        case .finishing:
            return "finishing: its finished(errors:) hook and didFinish observers run"
        case .skipped:
            return "skipped: a condition said there was nothing to do"
        case .finished(let errors):
            return errors.isEmpty ? "finished" : "finished with \(Self.count(errors))"
        case .cancelled(let errors):
            return "cancelled before it executed" + (errors.isEmpty ? "" : ", with \(Self.count(errors))")
        }
    }

    private static func count(_ errors: [any Error]) -> String {
        errors.count == 1 ? "1 error" : "\(errors.count) errors"
    }

    /// From how long a wait is worth a hint at the usual mistake.
    private static let long: TimeInterval = 10

    private static func seconds(_ seconds: TimeInterval) -> String {
        seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds.rounded())) s"
    }

    /// A rate's interval as it was given, not rounded to a tenth of a second: a rate of 10 per
    /// 50 ms is not one of 10 per 0.1 s.
    private static func interval(_ interval: Duration) -> String {
        let milliseconds = interval / .milliseconds(1)
        return milliseconds < 1000
            ? String(format: "%g ms", milliseconds) : String(format: "%g s", milliseconds / 1000)
    }
}
