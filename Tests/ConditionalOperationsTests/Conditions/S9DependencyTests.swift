import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S9: a failed or cancelled dependency stops a dependent only through NoFailedDependencies.
    @Suite struct S9DependencyTests {
        @Test func S9_aFailedDependencyDoesNotStopADependentByDefault() async {
            let failing = ProbeOperation(.finishWith([TestError(1)]))
            let dependent = ProbeOperation()
            dependent.addDependency(failing)
            let done = completionLatch([dependent])
            OperationQueue().add([failing, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 1)
        }

        @Test func S9_noFailedDependenciesStopsADependentOfAFailure() async {
            let failing = ProbeOperation(.finishWith([TestError(1)]))
            let fine = ProbeOperation()
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies())
            dependent.addDependency(failing)
            dependent.addDependency(fine)
            let done = completionLatch([dependent])
            OperationQueue().add([failing, fine, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 0)
            #expect(
                dependent.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("ProbeOperation", [TestError(1)])])
                ])
            #expect(!dependent.isCancelled)
        }

        @Test func S9_noFailedDependenciesStopsADependentOfACancellation() async {
            let cancelled = ProbeOperation()
            cancelled.cancel()
            let plainCancelled = BlockOperation {}
            plainCancelled.name = "plain"
            plainCancelled.cancel()
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies())
            dependent.addDependency(cancelled)
            dependent.addDependency(plainCancelled)
            let done = completionLatch([dependent])
            OperationQueue().add([cancelled, plainCancelled, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 0)
            #expect(dependent.errors.count == 1)
            let dependencies = (dependent.errors.first as? OperationError)?.failedDependencies ?? []
            #expect(
                dependent.errors.first.map { "\($0)" }?.hasPrefix("2 dependencies were cancelled: ") == true)
            #expect(
                dependencies.sorted { $0.name < $1.name } == [
                    .expected("ProbeOperation", cancelled: true), .expected("plain", cancelled: true),
                ])
        }

        @Test func S9_cancellationsCanBeIgnored() async {
            let cancelled = ProbeOperation()
            cancelled.cancel(with: TestError(2))
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies(ignoringCancellations: true))
            dependent.addDependency(cancelled)
            let done = completionLatch([dependent])
            OperationQueue().add([cancelled, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 1)
        }

        @Test func S9_aTimedOutDependencyCountsAsFailedNotCancelled() async {
            let upload = ProbeOperation(.never)
            upload.name = "upload"
            upload.addObserver(TimeoutObserver(timeout: .seconds(0.05)))
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies(ignoringCancellations: true))
            dependent.addDependency(upload)
            let done = completionLatch([dependent])
            OperationQueue().add([upload, dependent])
            #expect(await done.wait())
            #expect(upload.isCancelled, "a timeout cancels (S8)")
            #expect(
                dependent.executions.current == 0, "a timed-out dependency failed: the dependent does not run"
            )
            #expect(
                dependent.errors.map { "\($0)" } == [
                    "1 dependency failed: dependency 'upload' failed: timed out after 0.05 s"
                ])
        }

        @Test func S9_aTimedOutProducerIsReportedAsFailed() async {
            let producer = ClosureOperation<Int> { _ in }  // never finishes by itself
            producer.name = "fetch"
            producer.addObserver(TimeoutObserver(timeout: .seconds(0.05)))
            let consumer = ValueOperation<Bool>(.success(true))
            consumer.inject(from: producer) { _, _ in Issue.record("handed over from a timed-out producer") }
            let done = completionLatch([consumer])
            OperationQueue().add([producer, consumer])
            #expect(await done.wait())
            #expect(
                consumer.errors.map { "\($0)" } == [
                    "1 dependency failed: dependency 'fetch' failed: timed out after 0.05 s"
                ])
        }

        @Test func S9_aDependentsErrorNamesTheFailedDependencyAndCarriesItsErrors() async {
            let parse = ValueOperation<Int>(.failure(TestError(7)))
            parse.name = "parse"
            let save = ValueOperation<Bool>(.success(true))
            save.inject(from: parse) { _, _ in Issue.record("handed over from a failed producer") }
            let done = completionLatch([save])
            OperationQueue().add([parse, save])
            #expect(await done.wait())
            #expect(save.executions.current == 0)
            #expect(
                save.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("parse", [TestError(7)])])
                ])
            #expect(
                save.errors.map { "\($0)" } == [
                    "1 dependency failed: dependency 'parse' failed: TestError(id: 7)"
                ])
            do {
                _ = try save.result?.get()
                Issue.record("save succeeded")
            } catch let error as OperationError {
                #expect(error.failedDependencies.map(\.name) == ["parse"])
                #expect(testErrorIDs(error.underlyingErrors) == [7])
            } catch {
                Issue.record("unexpected \(error)")
            }
        }

        @Test func S9_aDependencyThatFailedIsReportedOnceWhenTwoConditionsSeeIt() async {
            let login = ValueOperation<String>(.failure(TestError(3)))
            login.name = "login"
            let sync = ProbeOperation()
            sync.addCondition(NoFailedDependencies())
            sync.inject(from: login) { _, _ in }
            let done = completionLatch([sync])
            OperationQueue().add([login, sync])
            #expect(await done.wait())
            #expect(sync.executions.current == 0)
            #expect(sync.errors.count == 1)
            #expect(
                sync.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("login", [TestError(3)])])
                ])
            #expect(
                sync.errors.map { "\($0)" } == [
                    "1 dependency failed: dependency 'login' failed: TestError(id: 3)"
                ])
        }

        @Test func S9_aDependentsErrorListsEachFailedDependencyOnceWhicheverConditionsSawIt() async {
            let login = ValueOperation<String>(.failure(TestError(3)))
            login.name = "login"
            let profile = ProbeOperation(.finishWith([TestError(4), TestError(5)]))
            profile.name = "profile"
            let sync = ProbeOperation()
            sync.addCondition(NoFailedDependencies())
            sync.addCondition(NoFailedDependencies(ignoringCancellations: true))
            sync.inject(from: login) { _, _ in }
            sync.addDependency(profile)
            let done = completionLatch([sync])
            OperationQueue().add([login, profile, sync])
            #expect(await done.wait())
            #expect(sync.errors.count == 1)
            let dependencies = (sync.errors.first as? OperationError)?.failedDependencies ?? []
            #expect(
                dependencies.sorted { $0.name < $1.name } == [
                    .expected("login", [TestError(3)]), .expected("profile", [TestError(4), TestError(5)]),
                ])
        }

        @Test func S9_aCancelledDependencysCancelErrorIsReachableThroughDependenciesCancelled() async {
            let login = ProbeOperation()
            login.name = "login"
            login.cancel(with: TestError(6))
            let sync = ProbeOperation()
            sync.addCondition(NoFailedDependencies())
            sync.addDependency(login)
            let done = completionLatch([sync])
            OperationQueue().add([login, sync])
            #expect(await done.wait())
            #expect(sync.executions.current == 0)
            #expect(
                sync.errors.map { $0 as? OperationError } == [
                    .dependenciesCancelled([.expected("login", [TestError(6)], cancelled: true)])
                ])
            #expect(
                sync.errors.map { "\($0)" } == [
                    "1 dependency was cancelled: dependency 'login' was cancelled: TestError(id: 6)"
                ])
            #expect(testErrorIDs((sync.errors.first as? OperationError)?.underlyingErrors ?? []) == [6])
        }

        @Test func S9_theRootCauseIsReachableFromTheEndOfAChainOfDependents() async {
            let fetch = ProbeOperation(.finishWith([TestError(8)]))
            fetch.name = "fetch"
            let parse = ProbeOperation()
            parse.name = "parse"
            parse.addCondition(NoFailedDependencies())
            parse.addDependency(fetch)
            let save = ProbeOperation()
            save.addCondition(NoFailedDependencies())
            save.addDependency(parse)
            let done = completionLatch([save])
            OperationQueue().add([fetch, parse, save])
            #expect(await done.wait())
            let error = save.errors.first as? OperationError
            #expect(error?.failedDependencies.map(\.name) == ["parse"])
            #expect(testErrorIDs(error?.underlyingErrors ?? []) == [8])
            #expect(
                error.map { "\($0)" }
                    == "1 dependency failed: dependency 'parse' failed: 1 dependency failed: dependency 'fetch' "
                    + "failed: TestError(id: 8)")
        }
    }
}
