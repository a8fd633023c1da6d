// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// Pages of a streamed query made into batches of `rows` rows, the last
/// fewer (`fc_arrow_stream_options.batch_rows`): consecutive pages are
/// merged, and cut where a batch is full. A service's small pages, or pages
/// the local checks thinned (a filter the server could not apply), then
/// still give full batches to a consumer that pays per batch (DuckDB,
/// polars, pyogrio's `batch_size`).
///
/// Pages of another layout (a column's type changed between pages) or
/// another spatial reference start a batch of their own. What was gathered
/// before the stream failed is given first; the failure comes on the next call.
package struct PageGatherer {
    /// The rows of every batch but the last (positive).
    package let rows: Int
    /// A page not yet given whole, and the first of its rows still to give.
    private var carry: (page: PageSink.Page, start: Int)?
    private var failure: FeatureCacheError?
    private var ended = false

    package init(rows: Int) {
        precondition(rows > 0, "a gatherer needs a positive batch size")
        self.rows = rows
    }

    /// The next batch of pages taken from `next` (which blocks until one
    /// comes); nil at the end. Throws the stream's failure once nothing
    /// gathered before it is left to give.
    package mutating func next(_ next: () -> PageSink.Next) throws(FeatureCacheError) -> PageSink.Page? {
        var parts: [FeatureBatch] = []
        var gathered = 0
        var spatialReference: SpatialReference?
        while gathered < rows {
            guard let (page, start) = take(next) else { break }
            if let first = parts.first, !page.batch.hasLayout(of: first) || page.spatialReference != spatialReference {
                carry = (page, start)  // it starts the next batch
                break
            }
            let end = start + min(page.batch.count - start, rows - gathered)
            parts.append(Self.slice(page.batch, start..<end))
            if end < page.batch.count { carry = (page, end) }
            gathered += end - start
            spatialReference = page.spatialReference
        }
        if parts.isEmpty {
            if let failure { throw failure }
            return nil
        }
        return (parts.count == 1 ? parts[0] : FeatureBatch.concatenating(consume parts), spatialReference)
    }

    /// The carried page, else the next one from `next`; nil at the end or
    /// at a failure (kept for when nothing gathered is left).
    private mutating func take(_ next: () -> PageSink.Next) -> (PageSink.Page, Int)? {
        if let carried = carry {
            carry = nil
            return carried
        }
        while failure == nil, !ended {
            switch next() {
            case .page(let page) where page.batch.count > 0: return (page, 0)
            case .page: continue
            case .end: ended = true
            case .failure(let error): failure = error
            }
        }
        return nil
    }

    /// `range` of `batch`'s rows: the batch itself when that is all of them.
    private static func slice(_ batch: FeatureBatch, _ range: Range<Int>) -> FeatureBatch {
        range.count == batch.count ? batch : batch.selecting(Array(range))
    }
}
