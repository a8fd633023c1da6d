// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// What the service said of one edit a request carried.
package struct EditOutcome: Sendable {
    package var objectId: Int64
    /// An add's new id, given by the service.
    package var serverObjectId: Int64?
    package var globalId: String?
    /// An add's new id as the service writes it, where it is text (an OGC API
    /// item id, a WFS feature id).
    package var serverId: String?
    /// nil: applied.
    package var error: FeatureCacheError?

    package init(
        objectId: Int64, serverObjectId: Int64? = nil, globalId: String? = nil, serverId: String? = nil, error: FeatureCacheError? = nil
    ) {
        self.objectId = objectId
        self.serverObjectId = serverObjectId
        self.globalId = globalId
        self.serverId = serverId
        self.error = error
    }
}

/// The writing side of a protocol adapter. The table keeps the pending edits,
/// orders, splits and reconciles them; an editor only speaks its protocol.
package protocol FeatureEditor: FeatureSource {
    /// The most edits one request carries.
    func maxEditsPerRequest(_ metadata: TableMetadata) -> Int
    /// A GlobalID for a new feature, when the service takes client GlobalIDs
    /// (an add whose answer is lost is then found by it); nil otherwise.
    func newGlobalId(_ metadata: TableMetadata) -> String?
    /// Sends one request's edits and returns an outcome per edit, in order.
    /// Any answer the service gave (a refusal of the whole request, a rollback)
    /// is returned as outcomes; a throw means no answer came (a lost or
    /// unreadable response): the edits may or may not have landed.
    func send(_ edits: [LocalEdit], metadata: TableMetadata, options: ApplyOptions) async throws(FeatureCacheError) -> [EditOutcome]
    /// For edits sent without an answer back, one each: landed (the service
    /// has it), absent (by a query the service cannot get wrong: to be sent
    /// again) or unknown (stays in doubt). `isCached`: ids the cache held
    /// before, which no lost add can be.
    func reconcile(
        _ edits: [LocalEdit], metadata: TableMetadata, isCached: @Sendable (Int64) -> Bool
    ) async throws(FeatureCacheError) -> [Reconciled]
    /// Updates and deletes of features the service changed since they were
    /// cached (where the protocol can tell): a conflict error by object id.
    func conflicts(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [Int64: FeatureCacheError]
}

extension FeatureEditor {
    package func newGlobalId(_ metadata: TableMetadata) -> String? { nil }
    package func conflicts(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        [:]
    }
}
