/// Scenarios that trip a bug whose fix has not reached this branch yet. The normal rounds skip
/// them (the plans keep their shape, so seeds replay the same), and a disabled test per finding
/// runs exactly them. Once the fix landed: delete the case and its disabled test.
enum AdversaryKnownIssue: String, CaseIterable, Sendable {
    /// A group cancelled while it starts (a zero timeout or a past deadline, a cancel racing its
    /// start) finishes without its children: they stay ready, never started, forever.
    case groupCancelledAsItStarts =
        "finding 4: a GroupOperation cancelled as it starts never finishes its children"

    /// Reading a group's `progress` while it starts its children traps in Foundation
    /// (`_ProgressFraction._math`, from `Progress.totalUnitCount`'s setter in
    /// `GroupOperation.writeProgress`), as for a group with no child. While open, the readers
    /// skip a group's `progress`; the scenarios it names are those with readers and a group.
    case groupProgressTraps = "finding 5: GroupOperation.progress traps"

    func matches(_ scenario: AdversaryScenario) -> Bool {
        switch self {
        case .groupProgressTraps:
            return scenario.grouped && scenario.readers > 0
        case .groupCancelledAsItStarts:
            guard scenario.grouped else { return false }
            let timesOutTheGroup = scenario.steps.contains {
                $0.onGroup && ($0.ending == .timeout || $0.ending == .deadline)
            }
            let racesTheStart =
                scenario.phase == .beforeEnqueue && scenario.racing
                && scenario.steps.contains {
                    $0.ending.isCancelling
                        && ($0.onGroup || $0.ending == .cancelAll || $0.ending == .shutdown)
                }
            return timesOutTheGroup || racesTheStart
        }
    }

    /// The known issues `scenario` trips; readers that skip a group's progress trip none.
    static func tripped(by scenario: AdversaryScenario) -> [AdversaryKnownIssue] {
        allCases.filter { $0 != .groupProgressTraps && $0.matches(scenario) }
    }
}
