// SPDX-License-Identifier: Apache-2.0
@testable import FCData
@testable import FCSupport
@testable import FCTables
import Testing

/// A streamed query's pages made into batches of a fixed size
/// (`PageGatherer`, `fc_arrow_stream_options.batch_rows`): every row once and
/// in order, full batches whatever the pages' sizes, a change of layout
/// starting a batch, and what came before a failure given before it.
@Suite struct PageGathererTests {
    /// A page of features `ids`, each with a "v" property: a number, or text.
    private func page(_ ids: ClosedRange<Int64>, text: Bool = false) -> PageSink.Page {
        let features = ids.map { id in
            let value = text ? "\"t\(id)\"" : "\(id)"
            return "{\"type\":\"Feature\",\"id\":\(id),\"geometry\":null,\"properties\":{\"v\":\(value)}}"
        }
        let json = "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
        let batch = try! Array(json.utf8).withUnsafeBytes { try GeoJSONReader.read($0, identity: FeatureIdentity()) }.batch
        return (batch, nil)
    }

    /// Every batch the gatherer gives for `pages` then `last`, as lists of ids.
    private func gather(_ pages: [PageSink.Page], rows: Int, last: PageSink.Next = .end) -> ([[Int64]], FeatureCacheError?) {
        var gatherer = PageGatherer(rows: rows)
        var queue = pages.map { PageSink.Next.page($0) } + [last]
        let next = { () -> PageSink.Next in queue.count > 1 ? queue.removeFirst() : queue[0] }
        var batches: [[Int64]] = []
        do throws(FeatureCacheError) {
            while let batch = try gatherer.next(next) { batches.append((0..<batch.batch.count).map { batch.batch.objectId($0) }) }
            return (batches, nil)
        } catch {
            return (batches, error)
        }
    }

    @Test func smallPagesAreMergedAndLargeOnesCut() {
        let pages = [page(1...3), page(4...4), page(5...11), page(12...12), page(13...30)]
        let (batches, error) = gather(pages, rows: 4)
        #expect(error == nil)
        #expect(batches.map(\.count) == [4, 4, 4, 4, 4, 4, 4, 2])
        #expect(batches.flatMap { $0 } == Array(1...30))
    }

    @Test func aBatchLargerThanTheLayerHoldsItAll() {
        let (batches, _) = gather([page(1...5), page(6...9)], rows: 1_000)
        #expect(batches == [Array(1...9)])
    }

    @Test func aPageOfAnotherLayoutStartsABatch() {
        let (batches, error) = gather([page(1...2), page(3...4, text: true), page(5...6, text: true)], rows: 10)
        #expect(error == nil)
        #expect(batches == [[1, 2], [3, 4, 5, 6]])
    }

    @Test func whatCameBeforeAFailureIsGivenFirst() {
        let failure = FeatureCacheError(.http, "HTTP 500 on page 3")
        let (batches, error) = gather([page(1...3), page(4...5)], rows: 4, last: .failure(failure))
        #expect(batches == [[1, 2, 3, 4], [5]])
        #expect(error?.code == .http)
    }

    @Test func theFailureComesAgainOnEveryLaterCall() {
        var gatherer = PageGatherer(rows: 4)
        let next = { () -> PageSink.Next in .failure(FeatureCacheError(.network, "gone")) }
        for _ in 0..<3 {
            #expect(throws: FeatureCacheError.self) { _ = try gatherer.next(next) }
        }
    }
}
