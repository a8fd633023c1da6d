// SPDX-License-Identifier: Apache-2.0
@testable import FCData
@testable import FCSupport
@testable import FCTables
import Dispatch
import Testing

/// The hand-over between a pager and a streamed query's consumer
/// (`PageSink`): pages in order, at most `capacity` waiting, the end or the
/// failure after the last page, and a consumer that lets go stopping a pager
/// that waits for room. Run under ThreadSanitizer by CI.
@Suite struct PageSinkTests {
    private func batch(_ id: Int64) -> FeatureBatch {
        let json = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\(id),\"geometry\":null,\"properties\":{}}]}"
        return try! Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch
    }

    @Test func pagesArriveInOrderAndThePagerWaitsForRoom() async throws {
        let sink = PageSink(prefetch: 2)
        let producer = Task {
            try await sink.running { () async throws(FeatureCacheError) in
                var fetched = FetchedFeatures()
                for id in 1...20 {
                    try await sink.waitForRoom()
                    fetched.append(self.batch(Int64(id)))
                }
                #expect(fetched.featureCount == 20 && fetched.batches.isEmpty && fetched.pageCount == 20)
            }
            sink.finish(.success(()))
        }
        let ids = await withCheckedContinuation { (done: CheckedContinuation<[Int64], Never>) in
            DispatchQueue.global().async {
                var ids: [Int64] = []
                while case .page(let page) = sink.next() { ids.append(page.batch.objectId(0)) }
                done.resume(returning: ids)
            }
        }
        #expect(ids == Array(1...20))
        try await producer.value
        guard case .end = sink.next() else { Issue.record("no end after the last page"); return }
    }

    @Test func aFailureFollowsThePagesBeforeIt() {
        let sink = PageSink(prefetch: 1)
        sink.deliver(batch(1), spatialReference: nil)
        sink.finish(.failure(FeatureCacheError(.http, "page 2 failed")))
        guard case .page = sink.next() else { Issue.record("the page before the failure is lost"); return }
        for _ in 0..<2 {
            guard case .failure(let error) = sink.next() else { Issue.record("no failure"); return }
            #expect(error.code == .http)
        }
    }

    @Test func lettingGoStopsAPagerThatWaits() async {
        let sink = PageSink(prefetch: 1)
        sink.deliver(batch(1), spatialReference: nil)  // the one place taken: the next wait blocks
        let waiting = Task { () async -> FeatureCacheError? in
            do throws(FeatureCacheError) {
                try await sink.waitForRoom()
                return nil
            } catch {
                return error
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
        sink.cancel()
        #expect(await waiting.value?.code == .cancelled)
        guard case .failure(let error) = sink.next() else { Issue.record("a page after letting go"); return }
        #expect(error.code == .cancelled)
        #expect(!sink.mayRestart)
    }
}
