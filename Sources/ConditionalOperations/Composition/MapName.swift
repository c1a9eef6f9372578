/// The name ``ResultOperation/map(_:)`` gives: the producer's name and how many maps lead to it
/// (`"fetch.map"`, `"fetch.map(2)"`), so that a chain of n maps holds n short names, not names
/// that grow by ".map" each (2,000 maps held 8 MB of them).
struct MapName: Sendable, CustomStringConvertible {
    /// The name of the first operation of the chain that is not a map.
    let root: String
    /// Maps from `root` to this one, from 1.
    let depth: Int

    init(root: String, depth: Int = 1) {
        self.root = root
        self.depth = depth
    }

    /// The name of a map of this one.
    var next: MapName { MapName(root: root, depth: depth + 1) }

    var description: String { depth == 1 ? "\(root).map" : "\(root).map(\(depth))" }
}

/// An operation ``ResultOperation/map(_:)`` made, which a map of it counts on from.
protocol MapNaming: AnyObject {
    var mapName: MapName { get }
}
