// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// What changed on a service since a generation of its data, as a source that
/// tracks changes says it (ArcGIS `extractChanges`): the ids, not the
/// features — those are read again by id, with the query every other
/// feature of the table came with, so a synchronized feature is the same
/// bytes as a populated one.
package struct SourceChanges: Sendable, Equatable {
    /// The generation the service is at now: the next call starts from it.
    package var generation: String
    /// Added or updated since the generation asked from.
    package var upserted: [Int64]
    package var deleted: [Int64]
    /// The service said so without a body (HTTP 304 Not Modified): nothing changed.
    package var notModified = false

    package init(generation: String, upserted: [Int64], deleted: [Int64], notModified: Bool = false) {
        self.generation = generation
        self.upserted = upserted
        self.deleted = deleted
        self.notModified = notModified
    }

    /// What changed from one whole copy of the data to the next (a document
    /// downloaded again): ids new in `new` or whose row differs (attributes
    /// or geometry), and ids `new` lacks.
    package init(from old: FeatureBatch, to new: FeatureBatch, generation: String) {
        var oldRows: [Int64: Int] = [:]
        oldRows.reserveCapacity(old.count)
        for row in 0..<old.count { oldRows[old.objectId(row)] = row }
        var upserted: [Int64] = []
        for row in 0..<new.count {
            let id = new.objectId(row)
            guard let before = oldRows.removeValue(forKey: id) else {
                upserted.append(id)
                continue
            }
            if !new.rowEquals(row, old, before) { upserted.append(id) }
        }
        self.init(generation: generation, upserted: upserted, deleted: oldRows.keys.sorted())
    }
}

/// A source that can say what changed since a generation of its data.
package protocol ChangeTrackingSource: FeatureSource {
    /// The generation of the data the metadata was read at, when the service
    /// tracks changes; nil when it does not (or does not say).
    func changeGeneration(_ metadata: TableMetadata) -> String?
    /// What changed since `generation`; nil when the service cannot say from
    /// there (no change tracking, a generation older than it keeps, a refusal
    /// in its own words): the caller then fetches again. Throws when no
    /// usable answer came (unreachable, HTTP errors, an answer that is not
    /// what the protocol says).
    func changes(since generation: String, metadata: TableMetadata) async throws(FeatureCacheError) -> SourceChanges?
    /// The generation the service is at now, asked of it (before a refetch:
    /// what the refetched features are current to at least).
    func currentGeneration(metadata: TableMetadata) async throws(FeatureCacheError) -> String?
}

extension QueryParameters {
    /// Every feature of the table as cached: no filter, window, field choice,
    /// generalization or other output system (what a synchronize fetches again).
    package var isWholeTable: Bool {
        let filter = whereClause.trimmingCharacters(in: " ")
        return (filter.isEmpty || filter == "1=1") && geometry == nil && objectIds.isEmpty && maxFeatures == 0
            && resultOffset == 0 && outFields == nil && returnGeometry && maxAllowableOffset == 0 && quantizationTolerance == 0
            && outWkid == 0
    }
}
