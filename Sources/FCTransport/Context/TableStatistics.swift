// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What a table has cost and saved: requests it sent and what came back, and
/// how its queries were answered. Counters only grow (until `reset`), except
/// `tilesCovered`, the tiles covered now.
public struct TableStatistics: Sendable, Equatable {
    /// HTTP requests sent for this table (metadata, pages, counts), failed ones too.
    public var requests = 0
    /// Response body bytes received.
    public var bytesReceived = 0
    /// Features received in responses (before merging).
    public var featuresReceived = 0
    /// `query`, `queryCount` and `queryExtent` calls answered from the cache…
    public var queriesLocal = 0
    /// …and by the service.
    public var queriesServer = 0
    /// Tiles of the interaction grid whose complete answer is cached (read from
    /// the coverage when the statistics are taken, never reset).
    public var tilesCovered = 0
    /// Tiles fetched (complete answers stored), splits counted per child.
    public var tilesFetched = 0
    /// Tile requests that failed (the tile stays uncovered, retried on the next interaction).
    public var tileFailures = 0
    /// Tiles evicted to keep the cache within its memory budget.
    public var evictions = 0
    /// Times the server was found to ignore a filter it was sent (features
    /// failing it came back); the clause is then evaluated locally only.
    public var serverFiltersIgnored = 0
    /// Fetches whose `next` links dropped the query's parameters (MapServer 8
    /// drops `bbox`), continued with the library's own offsets instead.
    public var nextLinksRepaired = 0
    /// Requests sent again after a transient failure (429, 502, 503, 504, a
    /// reset connection), under the context's retry policy.
    public var retries = 0
    /// ArcGIS operations asked again in JSON: the layer lists PBF but answered
    /// a PBF query with an error (the table stays on JSON from then on).
    public var formatFallbacks = 0
    /// Tiles kept past their freshness that the service said are unchanged (a 304 to each page).
    public var tilesRevalidated = 0

    public init() {}
}

/// The live counters behind `TableStatistics`, shared by a table and its
/// source, and the freshness the server gave the answers (never reset with
/// the counters: it is what the cache holds, not what it cost).
package final class StatisticsCounter: Sendable {
    private let value = Locked(TableStatistics())
    private let answers = Locked(AnswerFreshness())

    package init() {}

    package func update(_ body: (inout TableStatistics) -> Void) { value.withLock { body(&$0) } }

    package var snapshot: TableStatistics { value.withLock { $0 } }

    package func reset() { value.withLock { $0 = TableStatistics() } }

    /// How long what the table received stays fresh.
    package var freshness: AnswerFreshness { answers.withLock { $0 } }

    /// Answers received before (a saved cache's) join this table's.
    package func mergeFreshness(_ earlier: AnswerFreshness) { answers.withLock { $0.merge(earlier) } }

    /// A successful answer to `request`, received now: its freshness joins the rest.
    package func noteAnswer(_ response: StreamedResponse, to request: HTTPRequest) {
        guard (200..<300).contains(response.status) else { return }
        let until = request.method == .get ? HTTPFreshness.freshUntil(response.headers, receivedAt: DateText.now) : nil
        answers.withLock { $0.note(until) }
        FreshnessCollector.current?.note(until, validator: AnswerValidator.of(response, to: request))
    }

    package func countResponse(bytes: Int) {
        value.withLock {
            $0.requests += 1
            $0.bytesReceived += bytes
        }
    }
}
