import Foundation

extension ConditionalOperation: ProgressReporting {
    /// The operation's progress: one unit by default, completed when the operation finishes.
    ///
    /// Made on first access; an operation whose progress nobody asks for pays nothing for it.
    /// A subclass reporting steps sets `totalUnitCount` (in `execute()` or earlier) and raises
    /// `completedUnitCount` as it works; whatever is left is completed when it finishes.
    ///
    /// ```swift
    /// final class ResizeImages: ConditionalOperation, @unchecked Sendable {
    ///     let images: [URL]
    ///     init(images: [URL]) { self.images = images }
    ///     override func execute() {
    ///         progress.totalUnitCount = Int64(images.count)
    ///         for image in images where !isCancelled {
    ///             resize(image)
    ///             progress.completedUnitCount += 1
    ///         }
    ///         finish()
    ///     }
    /// }
    /// let resize = ResizeImages(images: urls)
    /// progressView.observedProgress = resize.progress  // a Cancel button cancels the operation
    /// queue.addOperation(resize)
    /// ```
    ///
    /// - **Finishing** completes every unit (`completedUnitCount = totalUnitCount`), also when the
    ///   operation failed or was cancelled: `fractionCompleted` says how much of the work is behind
    ///   us, so that a parent (a group, a progress of your own) reaches 1 once everything is done
    ///   instead of hanging below it. A cancelled operation's progress also reports `isCancelled`,
    ///   and ``errors`` say why an operation failed.
    /// - **Cancelling** the progress (`progress.cancel()`, or a Cancel button bound to it) cancels
    ///   the operation; cancelling the operation cancels its progress.
    /// - It is a discrete progress, never an implicit child of `Progress.current()`. Add it to a
    ///   progress of your own with `addChild(_:withPendingUnitCount:)`, or let a
    ///   ``GroupOperation`` do so for its children.
    /// - Ask for it before the operation finishes: the operation lets go of it when it finishes
    ///   (S12), and each later access returns a new, completed progress (a group's counts each of
    ///   its children, S31).
    ///
    /// On swift-corelibs-foundation `Progress` is not thread-safe: update it from one thread at
    /// a time (the thread running `execute()`).
    public var progress: Progress { makeProgress().progress }

    /// The operation's progress, and whether this call made it (and installed its observer).
    func makeProgress() -> (progress: Progress, made: Bool) {
        if let progress = ProgressTable.progress(of: self) { return (progress, false) }
        if isFinished { return (Self.finishedProgress(units: finishedUnits, cancelled: isCancelled), false) }
        let progress = Progress(parent: nil, userInfo: nil)
        progress.totalUnitCount = 1
        // Weakly: the user may keep the progress, and cancel it, long after the operation is gone.
        progress.cancellationHandler = { [weak self] in self?.cancel() }
        let (recorded, inserted) = ProgressTable.insert(progress, for: self)
        guard inserted else { return (recorded, false) }
        // An observer, not a check in the finishing path, so that operations without a progress
        // take no lock of the table when they finish. No `didStart`: the operation keeps its
        // shortcut for observers that ignore the start.
        addObserver(
            BlockObserver(
                didCancel: { _, _ in ProgressWrites.perform { progress.cancel() } },
                didFinish: { operation, _ in
                    Self.complete(progress)
                    ProgressTable.remove(operation)
                }))
        // Cancelled before the observer was added: it will not hear of it.
        if isCancelled { ProgressWrites.perform { progress.cancel() } }
        (self as? GroupOperation)?.progressWasMade(progress)
        return (progress, true)
    }

    /// Every unit done, without going past the total: a group's units may have been completed
    /// by its children already.
    private static func complete(_ progress: Progress) {
        ProgressWrites.perform {
            if progress.totalUnitCount <= 0 { progress.totalUnitCount = 1 }
            if progress.completedUnitCount < progress.totalUnitCount {
                progress.completedUnitCount = progress.totalUnitCount
            }
        }
    }

    /// The units a finished operation's progress counts: one, or one per child of a group (S31).
    private var finishedUnits: Int64 {
        guard let group = self as? GroupOperation else { return 1 }
        return Int64(max(group.children.count, 1))
    }

    /// What a finished operation reports when its progress is asked for only now.
    private static func finishedProgress(units: Int64, cancelled: Bool) -> Progress {
        let progress = Progress(parent: nil, userInfo: nil)
        progress.totalUnitCount = units
        progress.completedUnitCount = units
        if cancelled { progress.cancel() }
        return progress
    }
}
