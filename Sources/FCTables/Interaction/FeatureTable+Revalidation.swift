// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Conditional requests (RFC 9110 §13, RFC 9111 §4.3): a tile a reopened
/// cache kept past its freshness is asked again with the validators its
/// pages came with. Every page answering 304 Not Modified renews the tile
/// without a body; anything else means it changed (or the server does not
/// validate after all), and the tile is fetched again whole.
extension FeatureTable {
    /// Asks each page again conditionally; the tile as received now when
    /// every page is unchanged, nil when one is not (then nothing is kept of
    /// the answer: the caller fetches the tile as any other).
    package func revalidate(_ validators: [AnswerValidator]) async throws(FeatureCacheError) -> TileCoverage.Received? {
        var freshness = AnswerFreshness()
        var renewed: [AnswerValidator] = []
        for validator in validators {
            try Task.checkCancellationTyped()
            let request = context.makeRequest(
                .get, url: validator.url, headers: validator.conditionalHeaders, credentialsFor: source.urlString)
            let response = try await context.send(request, counting: statistics)
            guard response.status == 304 else { return nil }
            // The 304's own freshness and validators replace the stored ones.
            let now = DateText.now
            freshness.note(HTTPFreshness.freshUntil(response.headers, receivedAt: now))
            renewed.append(validator.renewed(by: response))
        }
        statistics.mergeFreshness(freshness)
        return TileCoverage.Received(freshUntil: freshness.vouchedUntil, validators: renewed)
    }
}
