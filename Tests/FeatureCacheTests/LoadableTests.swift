// SPDX-License-Identifier: Apache-2.0
import FeatureCache
import Synchronization
import Testing

/// The load state machine, with a scripted transport: interleavings are chosen by
/// the test (a request is held until the test answers it), not left to timing.
@Suite struct LoadableTests {
    @Test func concurrentLoadsCoalesceIntoOneRequest() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let results = Recorder<FeatureCacheError?>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { table.load { results.append($0) } } }
        }
        #expect(await transport.waitForHeld(1))
        #expect(table.loadStatus == .loading)
        transport.answer(.success(.json(treesLayerJSON)))
        #expect(await results.waitFor(50))
        try await Task.sleep(for: .milliseconds(20))
        #expect(results.count == 50)  // each exactly once
        #expect(results.all.allSatisfy { $0 == nil })
        #expect(transport.requestCount == 1)
        #expect(table.loadStatus == .loaded)
        #expect(try table.metadata().name == "Trees")
    }

    @Test func loadOnSettledAnswersAtOnceAndSendsNothing() async throws {
        let transport = ScriptedTransport(automatic: .success(.json(treesLayerJSON)))
        let table = try makeTable(transport)
        try await table.load()
        let results = Recorder<FeatureCacheError?>()
        table.load { results.append($0) }
        table.retryLoad { results.append($0) }
        #expect(await results.waitFor(2))
        #expect(results.all.allSatisfy { $0 == nil })
        #expect(transport.requestCount == 1)

        let failing = try makeTable(ScriptedTransport(automatic: .failure(FeatureCacheError(.network, "down"))))
        await #expect(throws: FeatureCacheError.self) { try await failing.load() }
        let again = Recorder<FeatureCacheError?>()
        failing.load { again.append($0) }
        #expect(await again.waitFor(1))
        #expect(again.all.first??.code == .network)
        #expect(failing.loadError?.message == "down")
    }

    @Test func retryStartsANewAttemptOnlyFromFailed() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let results = Recorder<FeatureCacheError?>()
        table.load { results.append($0) }
        #expect(await transport.waitForHeld(1))
        table.retryLoad { results.append($0) }  // joins
        transport.answer(.failure(FeatureCacheError(.http, "HTTP 503", httpStatus: 503)))
        #expect(await results.waitFor(2))
        #expect(results.all.allSatisfy { $0?.httpStatus == 503 })
        #expect(transport.requestCount == 1)
        #expect(table.loadStatus == .failedToLoad)

        table.retryLoad { results.append($0) }
        #expect(await transport.waitForHeld(1))
        #expect(table.loadStatus == .loading)
        #expect(table.loadError == nil)  // the old error is gone once a new attempt starts
        transport.answer(.success(.json(treesLayerJSON)))
        #expect(await results.waitFor(3))
        #expect(results.all[2] == nil)
        #expect(transport.requestCount == 2)
    }

    @Test func cancelFailsEveryWaiterAndCancelsTheRequest() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let statuses = Recorder<LoadStatus>()
        _ = table.addStatusObserver { statuses.append($0) }
        let results = Recorder<FeatureCacheError?>()
        for _ in 0..<3 { table.load { results.append($0) } }
        #expect(await transport.waitForHeld(1))
        table.cancelLoad()
        #expect(table.loadStatus == .failedToLoad)
        #expect(await results.waitFor(3))
        #expect(results.all.allSatisfy { $0?.code == .cancelled })
        #expect(table.loadError?.code == .cancelled)
        #expect(transport.cancelledCount == 1)  // the request itself was cancelled
        #expect(await statuses.waitFor(2))
        #expect(statuses.all == [.loading, .failedToLoad])

        table.cancelLoad()  // not loading: nothing happens
        #expect(statuses.count == 2)
    }

    /// Cancel and completion race on many attempts: whoever wins, every callback is
    /// called exactly once, and status and callbacks agree.
    @Test func cancelRacingCompletion() async throws {
        for _ in 0..<200 {
            let transport = ScriptedTransport()
            let table = try makeTable(transport)
            let results = Recorder<FeatureCacheError?>()
            let statuses = Recorder<LoadStatus>()
            _ = table.addStatusObserver { statuses.append($0) }
            table.load { results.append($0) }
            table.load { results.append($0) }
            #expect(await transport.waitForHeld(1))
            await withTaskGroup(of: Void.self) { group in
                group.addTask { transport.answer(.success(.json(treesLayerJSON))) }
                group.addTask { table.cancelLoad() }
            }
            #expect(await results.waitFor(2))
            #expect(await statuses.waitFor(2))
            try await Task.sleep(for: .milliseconds(2))
            #expect(results.count == 2)
            let final = table.loadStatus
            #expect(final == .loaded || final == .failedToLoad)
            let expected: FeatureCacheError? = final == .loaded ? nil : .cancelled
            #expect(results.all.allSatisfy { $0 == expected })
            #expect(statuses.all == [.loading, final])
        }
    }

    @Test func observersSeeEveryTransitionInOrder() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let statuses = Recorder<LoadStatus>()
        let token = table.addStatusObserver { statuses.append($0) }
        let settled = Recorder<FeatureCacheError?>()
        for (attempt, reply) in [
            ScriptedTransport.Reply.failure(.init(.timeout, "slow")), .failure(.init(.network, "reset")),
            .success(.json(treesLayerJSON)),
        ].enumerated() {
            table.retryLoad { settled.append($0) }
            #expect(await transport.waitForHeld(1))
            transport.answer(reply)
            #expect(await settled.waitFor(attempt + 1))
        }
        #expect(await statuses.waitFor(6))
        #expect(statuses.all == [.loading, .failedToLoad, .loading, .failedToLoad, .loading, .loaded])
        #expect(table.removeStatusObserver(token))
        #expect(!table.removeStatusObserver(token))
    }

    @Test func callbacksRunOutsideTheLockAndMayCallBack() async throws {
        let transport = ScriptedTransport(automatic: .success(.json(treesLayerJSON)))
        let table = try makeTable(transport)
        let inner = Recorder<String>()
        table.load { _ in
            // Each of these would deadlock if the machine's lock were held here.
            inner.append("status \(table.loadStatus)")
            table.load { _ in inner.append("nested load") }
            _ = table.addStatusObserver { _ in }
            do {
                try table.loadAndWait(timeout: 1)
                inner.append("wait returned")
            } catch let error as FeatureCacheError {
                inner.append("wait: \(error.code)")
            } catch {
                inner.append("wait: \(error)")
            }
        }
        #expect(await inner.waitFor(3))
        #expect(inner.all.contains("status LOADED"))
        #expect(inner.all.contains("nested load"))
        #expect(inner.all.contains("wait: invalidState"))
        #expect(transport.requestCount == 1)
    }

    @Test func waitReturnsAfterEarlierCallbacksRan() async throws {
        let transport = ScriptedTransport(automatic: .success(.json(treesLayerJSON)))
        let table = try makeTable(transport)
        let ran = Atomic<Int>(0)
        for _ in 0..<10 { table.load { _ in ran.add(1, ordering: .relaxed) } }
        // A blocking wait, as C callers make it: from a thread of their own, never
        // from Swift's cooperative pool. The timeout only bounds a broken run: on
        // a 2-core machine under ThreadSanitizer, the pool's two threads run the
        // other suites' CPU-bound synchronous tests, and the load's task waits
        // behind them, in CI up to the rest of the suite (over 120 s twice, with
        // 277 tests; the whole TSan run takes ~4 minutes).
        let error = await blockingOnAnotherThread { () throws(FeatureCacheError) in try table.loadAndWait(timeout: 600) }
        #expect(error == nil)
        #expect(ran.load(ordering: .relaxed) == 10)
    }

    @Test func metadataGettersRequireLoaded() async throws {
        let transport = ScriptedTransport(automatic: .success(.json(treesLayerJSON)))
        let table = try makeTable(transport)
        #expect(throws: FeatureCacheError.self) { try table.metadata() }
        #expect(table.loadedMetadata == nil)
        try await table.load()
        let metadata = try table.metadata()
        #expect(metadata.maxRecordCount == 2000)
        #expect(metadata.sourceFacts["supports_pagination"] == "true")
        #expect(metadata.objectIdField == "OBJECTID")
        #expect(metadata.fields.map(\.type) == [.oid, .string])
    }
}
