extension OperationGraph.Node {
    /// The lines of the node's label, unescaped: name, state, conditions, categories, reason.
    var lines: [String] {
        var state = "\(self.state)"
        if isCancelled { state += ", cancelled" }
        if failed { state += ", failed" }
        var lines = [name, state]
        if !conditions.isEmpty { lines.append("conditions: \(conditions.joined(separator: ", "))") }
        if !categories.isEmpty { lines.append("categories: \(categories.joined(separator: ", "))") }
        if let reason { lines.append(reason) }
        return lines
    }

    /// How the node is drawn: what a person must see first (cancelled, failed) wins over the state.
    var style: OperationGraph.Style {
        if isCancelled { return .cancelled }
        if failed { return .failed }
        switch state {
        case .initialized: return .initialized
        case .pending: return .pending
        case .evaluatingConditions: return .evaluatingConditions
        case .ready: return .ready
        case .executing: return .executing
        case .finishing: return .finishing
        case .finished: return .finished
        }
    }
}

extension OperationGraph {
    /// The colours of a node, the same in every format. Waiting is orange to yellow as it nears
    /// the start, running is green, done is grey, and red marks what went wrong.
    enum Style: String, CaseIterable {
        case initialized, pending, evaluatingConditions, ready, executing, finishing, finished
        case failed, cancelled

        var fill: String {
            switch self {
            case .initialized: "#ffffff"
            case .pending: "#ffe0b2"
            case .evaluatingConditions: "#ffecb3"
            case .ready: "#fff9c4"
            case .executing: "#c8e6c9"
            case .finishing: "#dcedc8"
            case .finished: "#eeeeee"
            case .failed, .cancelled: "#ffcdd2"
            }
        }

        var stroke: String {
            switch self {
            case .initialized, .finished: "#9e9e9e"
            case .pending: "#ef6c00"
            case .evaluatingConditions, .ready: "#f9a825"
            case .executing: "#2e7d32"
            case .finishing: "#558b2f"
            case .failed, .cancelled: "#c62828"
            }
        }

        var text: String { self == .finished ? "#616161" : "#000000" }

        /// A cancelled operation is drawn dashed, to tell it from one that failed on its own.
        var isDashed: Bool { self == .cancelled }
    }

    /// The line shown when the limit left operations out.
    var omissionNote: String? {
        omitted == 0 ? nil : "\(omitted) more operation\(omitted == 1 ? "" : "s") not shown (limit reached)"
    }
}

extension OperationGraph {
    /// `text` with each scalar `replacement` names replaced, every line break (LF, CR or CRLF)
    /// made `lineBreak` and other control characters made spaces: the rules both formats share.
    static func escaped(
        _ text: String, lineBreak: String, replacing replacement: (Unicode.Scalar) -> String?
    ) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            if let replaced = replacement(scalar) {
                escaped += replaced
                continue
            }
            switch scalar {
            case "\n" where afterCarriageReturn: continue
            case "\n", "\r": escaped += lineBreak
            case _ where scalar.properties.generalCategory == .control: escaped += " "
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
