// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The WFS-T side of a feature type: one `Transaction` per request of edits
/// (inserts in the type's schema, updates and deletes by feature id), all or
/// nothing as the standard makes every transaction (`WFSTransaction`).
extension WFSFeatureTypeSource: FeatureEditor {
    func maxEditsPerRequest(_ metadata: TableMetadata) -> Int { metadata.editing.maxEditsPerRequest }

    /// What the capabilities say this type takes: `Transaction` offered, and
    /// the operations the type lists (all three when it lists none).
    static func editing(_ capabilities: WFSCapabilities, _ type: WFSFeatureTypeInfo) -> EditCapabilities {
        var editing = EditCapabilities()
        guard capabilities.supportsTransaction else { return editing }
        let listed = type.operations.map { Set($0.map { $0.lowercased() }) }
        editing.canAdd = listed?.contains("insert") ?? true
        editing.canUpdate = listed?.contains("update") ?? true
        editing.canDelete = listed?.contains("delete") ?? true
        editing.supportsRollback = true
        editing.maxEditsPerRequest = 1000
        return editing
    }

    /// A schema field the client may write: all but the store's key, which
    /// servers publish as a required integer (`fid`, `ogc_fid`, …) and fill themselves.
    static func isWritable(_ field: FieldInfo) -> Bool {
        let keys: Set<String> = ["fid", "ogc_fid", "gml_id", "objectid", "gid"]
        return !(keys.contains(field.name.lowercased()) && !field.nullable && ColumnKind(field.type) == .int64)
    }

    /// The feature id a Transaction names: the `gml:id` the feature came with.
    func serviceId(of objectId: Int64) -> String? {
        guard let text = identity.serviceId(for: objectId) else { return nil }
        guard objectId >= 0, objectId < 1 << 52 else { return text }
        return (state.withLock { $0.idPrefix } ?? "") + text
    }

    func send(_ edits: [LocalEdit], metadata: TableMetadata, options: ApplyOptions) async throws(FeatureCacheError) -> [EditOutcome] {
        let (schema, version) = state.withLock { ($0.schema, $0.version) }
        let transaction = WFSTransaction(tableVersion: version, typeName: typeName, schema: schema, metadata: metadata)
        let xml = try transaction.document(edits) { $0.serviceId ?? serviceId(of: $0.objectId) }
        var url = service.endpoint
        url.set("SERVICE", "WFS")
        let request = requester.post(url, xml: xml, idempotent: false)
        let response = try await service.context.send(request, counting: statistics)
        if response.status >= 400, !WFSException.looksLikeException(response.body) {
            throw ServiceResponse.httpError(response, request: request, detail: nil)
        }
        return try transaction.outcomes(of: edits, answer: response.body, status: response.status, identity: identity)
    }

    /// WFS-T has no version check of its own: each feature an Update or
    /// Delete names is read by id first (`GetFeature` with a ResourceId /
    /// FeatureId filter) and compared with the cached copy.
    func conflicts(_ edits: [LocalEdit], metadata: TableMetadata) async throws(FeatureCacheError) -> [Int64: FeatureCacheError] {
        try await conflictsByQuery(edits, metadata: metadata)
    }

    func reconcile(
        _ edits: [LocalEdit], metadata: TableMetadata, isCached: @Sendable (Int64) -> Bool
    ) async throws(FeatureCacheError) -> [Reconciled] {
        try await reconcileByQuery(edits, metadata: metadata, isCached: isCached)
    }
}
