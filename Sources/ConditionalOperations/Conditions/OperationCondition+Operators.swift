/// `a && b`: an ``AllOf`` of both; an `AllOf` on the left gains `rhs` as a member.
public func && (lhs: some OperationCondition, rhs: some OperationCondition) -> AllOf {
    if let all = lhs as? AllOf { return AllOf(all.conditions + [rhs]) }
    return AllOf([lhs, rhs])
}

/// `a || b`: an ``AnyOf`` of both; an `AnyOf` on the left gains `rhs` as a member.
public func || (lhs: some OperationCondition, rhs: some OperationCondition) -> AnyOf {
    if let any = lhs as? AnyOf { return AnyOf(any.conditions + [rhs]) }
    return AnyOf([lhs, rhs])
}

/// `!a`: a ``NegatedCondition`` of `condition` (a negated skip is a skip).
public prefix func ! <C: OperationCondition>(condition: C) -> NegatedCondition<C> {
    NegatedCondition(condition)
}
