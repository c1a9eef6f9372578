import Foundation

extension OperationTimeline {
    /// The timeline as one self-contained HTML page (inline SVG and CSS, nothing fetched): the
    /// ``warnings`` first, then one row per operation kept, its spans drawn in one colour per kind of
    /// wait, each with its reason on hover, an operation's conditions and category waits as a thin
    /// bar inside its row, its end as a dot (red if it failed); a legend below. The rows of a
    /// group's children, a retry's attempts and a repeat's iterations follow their composite's,
    /// indented.
    public func html() -> String {
        let snapshot = snapshot()
        return TimelinePage(snapshot: snapshot, warnings: Self.warnings(in: snapshot)).render()
    }
}

/// The page ``OperationTimeline/html()`` writes.
struct TimelinePage {
    let snapshot: TimelineSnapshot
    let warnings: [OperationTimeline.Warning]

    static let rowHeight = 20
    static let labelWidth = 360
    static let plotWidth = 960

    func render() -> String {
        let rows = orderedTracks()
        let start = snapshot.spans.map(\.span.start).min() ?? snapshot.now
        let span = max(snapshot.now &- min(start, snapshot.now), 1)
        let height = rows.count * Self.rowHeight + 24
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.labelWidth + Self.plotWidth + 20)" \
            height="\(height)" role="img" aria-label="operation timeline">
            """
        // Where a time falls on the plot, and how wide a duration is, clamped to it.
        func position(_ time: UInt64) -> Int {
            Self.labelWidth
                + Int(min(1, Double(time &- min(start, time)) / Double(span)) * Double(Self.plotWidth))
        }
        func width(_ duration: UInt64) -> Int {
            max(1, Int(min(1, Double(duration) / Double(span)) * Double(Self.plotWidth)))
        }
        let spansByTrack = Dictionary(grouping: snapshot.spans, by: \.span.track)
        for (row, (track, depth)) in rows.enumerated() {
            let y = row * Self.rowHeight
            let label = snapshot.tracks[track].name
            svg +=
                "<text class=\"label\" x=\"\(4 + depth * 14)\" y=\"\(y + 14)\">"
                + "\(Self.escape(Self.shortened(label, depth: depth)))<title>\(Self.escape(label))</title></text>"
            for entry in spansByTrack[track] ?? [] {
                let duration = entry.span.duration(until: snapshot.now)
                let nested = entry.span.kind.isNested
                let title =
                    OperationTimeline.title(of: entry.span) + (entry.isOpen ? " (still open)" : "")
                    + String(format: ", %.3f ms", Double(duration) / 1e6)
                svg +=
                    "<rect class=\"\(entry.span.kind.style.className)\" x=\"\(position(entry.span.start))\" "
                    + "y=\"\(y + (nested ? 13 : 3))\" width=\"\(width(duration))\" height=\"\(nested ? 5 : 10)\">"
                    + "<title>\(Self.escape(title))</title></rect>"
            }
            if let (at, errors) = snapshot.tracks[track].finished {
                let ending = OperationTimeline.ending(of: snapshot.tracks[track], errors: errors)
                let detail =
                    errors.isEmpty
                    ? ending : ending + ": " + errors.map { String(describing: $0) }.joined(separator: "; ")
                svg +=
                    "<circle class=\"end\(errors.isEmpty ? "" : " failed")\" cx=\"\(position(at))\" cy=\"\(y + 8)\" "
                    + "r=\"3\"><title>\(Self.escape(detail))</title></circle>"
            }
        }
        svg += "</svg>"
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Operation timeline</title>
            <style>
            body { font: 13px -apple-system, "Segoe UI", sans-serif; margin: 16px; color: #212121; }
            .label { font-size: 12px; fill: #212121; }
            .warnings li { color: #b71c1c; }
            .legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: middle; }
            circle.end { fill: #212121; } circle.failed { fill: #c62828; }

            """
        for kind in TimelineSpan.Kind.allCases {
            page += "rect.\(kind.style.className) { fill: \(kind.style.colour); }\n"
        }
        page += "</style></head><body>\n<h1>Operation timeline</h1>\n"
        page +=
            "<p>\(Self.operationsShown(snapshot.tracks)) over "
            + String(format: "%.3f ms", Double(span) / 1e6)
            + "; \(snapshot.dropped) spans dropped to stay within capacity.</p>\n"
        if !warnings.isEmpty {
            page += "<ul class=\"warnings\">\n"
            for warning in warnings { page += "<li>\(Self.escape(warning.description))</li>\n" }
            page += "</ul>\n"
        }
        page += svg + "\n<p class=\"legend\">"
        for kind in TimelineSpan.Kind.allCases {
            page += "<span style=\"background: \(kind.style.colour)\"></span>\(Self.escape(kind.rawValue))"
        }
        page += "</p>\n</body></html>\n"
        return page
    }

    /// How many operations the page shows: those kept, and how many were recorded if some went.
    static func operationsShown(_ tracks: TimelineRows) -> String {
        tracks.keptCount == tracks.count
            ? "\(tracks.count) operations" : "\(tracks.keptCount) operations (of \(tracks.count) recorded)"
    }

    /// Tracks in page order: each operation followed by those run inside it, with their depth.
    func orderedTracks() -> [(Int, Int)] {
        var children: [Int: [Int]] = [:]
        var roots: [Int] = []
        for index in snapshot.tracks.indices {
            // A composite's row is gone once its spans all were: its operations are drawn alone.
            if let parent = snapshot.tracks[index].parent, snapshot.tracks.contains(parent) {
                children[parent, default: []].append(index)
            } else {
                roots.append(index)
            }
        }
        var ordered: [(Int, Int)] = []
        func visit(_ track: Int, depth: Int) {
            ordered.append((track, depth))
            for child in children[track] ?? [] { visit(child, depth: depth + 1) }
        }
        for root in roots { visit(root, depth: 0) }
        return ordered
    }

    /// `label`, cut in the middle to fit the label column at `depth` (the whole name is on
    /// hover): its type and the end of its name, which tells siblings apart, stay.
    static func shortened(_ label: String, depth: Int) -> String {
        let fits = max(12, 50 - depth * 2)
        guard label.count > fits else { return label }
        let head = fits / 2
        return label.prefix(head) + "…" + label.suffix(fits - head - 1)
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension TimelineSpan.Kind {
    /// How the page draws it: its CSS class and its colour (the legend follows the cases' order).
    var style: (className: String, colour: String) {
        switch self {
        case .dependencies: ("dependencies", "#9e9e9e")
        case .joined: ("joined", "#ab47bc")
        case .conditions: ("conditions", "#64b5f6")
        case .condition: ("condition", "#1565c0")
        case .categories: ("categories", "#ef6c00")
        case .slot: ("slot", "#ffd54f")
        case .executing: ("executing", "#43a047")
        case .finishing: ("finishing", "#2e7d32")
        }
    }
}
