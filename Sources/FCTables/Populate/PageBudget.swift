// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Counts the pages and features one operation (a populate, a query, a tile)
/// reads, against the context's `WorkLimits`: a server that sets
/// `exceededTransferLimit` or a `next` link for ever, with fresh ids each time,
/// ends in `.limit` instead of filling memory. Shared by the pages of one
/// operation only; the lock makes it safe wherever its task runs.
package final class PageBudget: Sendable {
    private let spent = Locked((pages: 0, features: 0))

    package init() {}

    /// Counts one page of `features`; fails once either limit is passed.
    package func spend(features: Int, limits: WorkLimits, request: @autoclosure () -> String) throws(FeatureCacheError) {
        let (pages, total) = spent.withLock { spent in
            spent.pages += 1
            spent.features += features
            return spent
        }
        if pages > limits.maxPagesPerOperation {
            throw FeatureCacheError(
                .limit,
                "\(request()): more than \(limits.maxPagesPerOperation) pages for one operation (the context's max_pages_per_operation); the server may be paging for ever"
            )
        }
        if total > limits.maxFeaturesPerOperation {
            throw FeatureCacheError(
                .limit,
                "\(request()): more than \(limits.maxFeaturesPerOperation) features for one operation (the context's max_features_per_operation)"
            )
        }
    }
}
