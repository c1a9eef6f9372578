extension OperationGraph {
    /// The graph as a Mermaid flowchart, which GitHub and many wikis draw from a ` ```mermaid `
    /// block: one box per operation, coloured by state, and an arrow from each dependency to its
    /// dependent.
    ///
    /// ```swift
    /// let markdown = "```mermaid\n\(OperationGraph([upload, notify]).mermaid)```\n"
    /// ```
    ///
    /// Nodes are `n0`, `n1`, … with dependencies before their dependents, so operations in the
    /// same states give the same text, apart from the seconds a reason counts (how long
    /// conditions have been evaluated, say).
    public var mermaid: String {
        var text = [
            "flowchart LR",
            "    %% dependency --> dependent: the dependency must finish before the dependent starts",
        ]
        for (id, node) in nodes.enumerated() {
            text.append("    n\(id)[\"\(node.lines.map(Self.mermaidEscaped).joined(separator: "<br>"))\"]")
        }
        for (id, node) in nodes.enumerated() {
            for dependency in node.dependencies { text.append("    n\(dependency) --> n\(id)") }
        }
        if nodes.contains(where: { !$0.children.isEmpty }) {
            text.append("    %% child -. in .-> group: the group finishes after its children")
        }
        for (id, node) in nodes.enumerated() {
            for child in node.children { text.append("    n\(child) -. in .-> n\(id)") }
        }
        if let omissionNote {
            text.append("    omitted[\"\(Self.mermaidEscaped(omissionNote))\"]")
            text.append("    style omitted fill:none,stroke:none")
        }
        // Only the styles used, in a fixed order, so that the same graph gives the same text.
        let styles = nodes.map(\.style)
        for style in Style.allCases where styles.contains(style) {
            let dash = style.isDashed ? ",stroke-dasharray:5 3" : ""
            text.append(
                "    classDef \(style.rawValue) fill:\(style.fill),stroke:\(style.stroke),color:\(style.text)\(dash)"
            )
            let members = styles.indices.filter { styles[$0] == style }.map { "n\($0)" }
            text.append("    class \(members.joined(separator: ",")) \(style.rawValue)")
        }
        return text.joined(separator: "\n") + "\n"
    }

    /// `text` for the inside of a Mermaid `["…"]` label: the quote would end it, Mermaid decodes
    /// `#…;` entity codes and draws labels as HTML, so those characters become entity codes; a
    /// line break in a name becomes `<br>`.
    static func mermaidEscaped(_ text: String) -> String {
        escaped(text, lineBreak: "<br>") { scalar in
            switch scalar {
            case "\"": "#quot;"
            case "#": "#35;"
            case "&": "#amp;"
            case "<": "#lt;"
            case ">": "#gt;"
            // `%%` starts a comment and a backtick a Markdown string, in some of Mermaid's parsers.
            case "%": "#37;"
            case "`": "#96;"
            default: nil
            }
        }
    }
}
