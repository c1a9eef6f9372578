#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes currently allocated by `malloc`, across all threads, or `nil` where unsupported.
///
/// Differences of two readings around the creation of many objects give their size including
/// everything they allocate (locks, arrays, boxed existentials), which `MemoryLayout` cannot see.
enum Heap {
    static func bytesInUse() -> Int? {
        #if canImport(Glibc)
            guard let mallinfo2 = GlibcMallinfo2.function else { return nil }
            // mallinfo2 sums every arena, so allocations made on the round's thread count too;
            // hblkhd adds the blocks big enough to be mmapped (large arrays).
            return withUnsafeBytes(of: mallinfo2()) { raw in
                let fields = raw.bindMemory(to: Int.self)
                return fields[GlibcMallinfo2.uordblks] + fields[GlibcMallinfo2.hblkhd]
            }
        #elseif canImport(Darwin)
            var statistics = malloc_statistics_t()
            malloc_zone_statistics(nil, &statistics)
            return Int(statistics.size_in_use)
        #else
            return nil
        #endif
    }

    /// Heap growth per operation between two readings, when both exist.
    static func perOperation(from before: Int?, to after: Int?, operations: Int) -> Double? {
        guard let before, let after, operations > 0 else { return nil }
        return Double(after - before) / Double(operations)
    }
}

#if canImport(Glibc)
    /// glibc's `struct mallinfo2 mallinfo2(void)`, which Swift's Glibc module does not import
    /// (it leaves out `<malloc.h>`), and this target may not add a C module.
    ///
    /// The function is looked up at run time. A C function returning a struct larger than 16
    /// bytes writes it into a buffer its caller provides, on x86-64 and arm64 alike, so any
    /// imported C struct of at least `struct mallinfo2`'s ten `size_t`s can stand for it:
    /// `sigset_t` (128 bytes) does. Only the first ten words are read.
    private enum GlibcMallinfo2 {
        typealias Function = @convention(c) () -> sigset_t

        /// Field indices in `struct mallinfo2`.
        static let hblkhd = 4
        static let uordblks = 7
        private static let fieldCount = 10

        static let function: Function? = {
            guard MemoryLayout<sigset_t>.size >= fieldCount * MemoryLayout<Int>.size,
                MemoryLayout<Int>.size == MemoryLayout<size_t>.size,
                let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallinfo2")
            else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }()
    }
#endif
