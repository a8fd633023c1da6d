// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// A resumable populate (`fc_populate_options.resumable`): with a cache
/// folder, the pages are journaled as they come (`PopulateJournal`), a
/// populate cut short resumes from them, and a populate the journal says
/// completed, over a cache the service's evidence says is unchanged, is
/// answered from the cache without a request.
extension FeatureTable {
    /// The journal of a populate of `query`: nil without a writable cache
    /// folder or without the layer-wide evidence (a data version) that makes
    /// replaying pages sound. `fresh`: whatever the folder holds is replaced.
    func populateJournal(for query: QueryParameters, metadata: TableMetadata, fresh: Bool = false) -> PopulateJournal? {
        guard let version = metadata.dataVersion, !version.isEmpty,
            let cache = persistence.withLock({ $0.saver == nil ? nil : $0.cache })
        else { return nil }
        let journal = try? PopulateJournal(
            path: cache.populatePath, signature: populateSignature(query, metadata: metadata), dataVersion: version, fresh: fresh)
        if journal != nil { persistence.withLock { $0.populateJournal = true } }
        return journal
    }

    /// What decides the pages of a populate of `query`: the table (its
    /// cache's identity), the query as sent with the definition expression,
    /// the fields asked for, the page size and the options the caller set (a
    /// query format, an axis order). A hash: the query may hold a long geometry.
    private func populateSignature(_ query: QueryParameters, metadata: TableMetadata) -> String {
        // The options a caller sets; not those that only report what the
        // source learned (the query format in use), which the first page changes.
        let options = source.options.filter { $0.write != nil }.map { "\($0.name)=\((try? $0.read(metadata)) ?? "")" }
            .joined(separator: "&")
        let text =
            "\(persistence.withLock { $0.cache?.identity } ?? "")|\(String(reflecting: serverQuery(query)))"
            + "|pageSize=\(metadata.maxRecordCount)|wkid=\(metadata.spatialReference?.effectiveWkid ?? 0)|\(options)"
        return String(ContentHash.of(text), radix: 16)
    }

    /// The features of a completed populate of the same query, from the
    /// cache, when its journal says it completed and the store is still what
    /// the load restored on unchanged evidence; nil otherwise (then fetch).
    func answerFromCache(
        _ query: QueryParameters, journal: PopulateJournal, metadata: TableMetadata, progress: PopulateProgress?
    ) throws(FeatureCacheError) -> FeatureResult? {
        // A populate max features cut is fetched again (its answer says so).
        guard journal.completed == PopulateJournal.Completed(limitExceeded: false), persistence.withLock({ $0.restoredUnchanged })
        else { return nil }
        // Every row the store holds is that populate's (it replaced the
        // cache), in the order it was cached in; its fields are those asked.
        var all = QueryParameters()
        all.outFields = query.outFields
        all.returnGeometry = query.returnGeometry
        let local = try LocalQuery(all, definitionExpression: "", fields: metadata.fields, table: metadata.spatialReference)
        let result = try local.run(store.queryableSnapshot(), spatialReference: metadata.spatialReference)
        statistics.update { $0.queriesLocal += 1 }
        progress?(FetchProgress(pages: 0, features: result.count, totalFeatures: result.count))
        return result
    }

    /// The populate's features are cached and saved: a populate that
    /// replaced the cache leaves its journal completed; one merged into it
    /// leaves none (the cache then holds more than its answer), nor one
    /// after which something else wrote (`writes`: the count after its own).
    func finish(_ journal: PopulateJournal, clearCache: Bool, limitExceeded: Bool, writes: Int) {
        let completes = persistence.withLock { state in
            let completes = clearCache && state.info.lastSaveError == nil && state.writes == writes
            state.populateJournal = completes
            return completes
        }
        if completes { journal.complete(limitExceeded: limitExceeded) } else { CacheFiles.remove(journal.path) }
    }
}
