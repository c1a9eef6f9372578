extension OperationGraph {
    /// The graph in Graphviz's DOT language: one box per operation, coloured by state, and an
    /// arrow from each dependency to its dependent.
    ///
    /// ```swift
    /// try OperationGraph(queue: queue).dot.write(toFile: "queue.dot", atomically: true, encoding: .utf8)
    /// // then: dot -Tsvg queue.dot -o queue.svg
    /// ```
    ///
    /// Nodes are `n0`, `n1`, … with dependencies before their dependents, so operations in the
    /// same states give the same text, apart from the seconds a reason counts (how long
    /// conditions have been evaluated, say).
    public var dot: String {
        var text = [
            "// dependency -> dependent: the dependency must finish before the dependent starts",
            "digraph operations {",
            "    rankdir=LR;",
            "    node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];",
        ]
        for (id, node) in nodes.enumerated() {
            let style = node.style
            let label = node.lines.map(Self.dotEscaped).joined(separator: "\\n")
            let shape = style.isDashed ? ", style=\"rounded,filled,dashed\"" : ""
            text.append(
                "    n\(id) [label=\"\(label)\", fillcolor=\"\(style.fill)\", color=\"\(style.stroke)\","
                    + " fontcolor=\"\(style.text)\"\(shape)];")
        }
        for (id, node) in nodes.enumerated() {
            for dependency in node.dependencies { text.append("    n\(dependency) -> n\(id);") }
        }
        if nodes.contains(where: { !$0.children.isEmpty }) {
            text.append("    // child -> group, dashed: the group finishes after its children")
        }
        for (id, node) in nodes.enumerated() {
            for child in node.children {
                text.append("    n\(child) -> n\(id) [style=dashed, label=\"in\"];")
            }
        }
        if let omissionNote {
            text.append(
                "    omitted [label=\"\(Self.dotEscaped(omissionNote))\", shape=plaintext, style=\"\"];")
        }
        text.append("}")
        return text.joined(separator: "\n") + "\n"
    }

    /// `text` for the inside of a DOT double-quoted string: a backslash starts an escape there
    /// (`\n`, `\l`, `\N`, …), so backslashes and quotes are escaped, and a line break in a name
    /// becomes a line break of the label.
    static func dotEscaped(_ text: String) -> String {
        escaped(text, lineBreak: "\\n") { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            default: nil
            }
        }
    }
}
