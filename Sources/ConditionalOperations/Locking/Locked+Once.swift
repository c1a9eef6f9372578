extension Locked where Value == Bool {
    /// Whether the flag was still set, clearing it: `true` to the first caller alone, for work
    /// that two paths may ask for and that must happen once.
    func clear() -> Bool {
        withLock { isSet in
            defer { isSet = false }
            return isSet
        }
    }
}
