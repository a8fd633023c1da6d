// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What a table's persisted cache did when the table loaded, and where it stands.
public struct CacheInfo: Sendable, Equatable {
    // Revalidation (FC_CACHE_*): CacheInfo+Revalidation.generated.swift.

    /// The table's cache folder; nil when it is not persisted.
    public var folder: String?
    /// Another table holds the folder: this one reads it and never writes.
    public var isReadOnly = false
    /// The table loaded from the cache because the service could not be reached.
    public var isOffline = false
    /// When the features on disk were saved (seconds since 1970), 0 = never.
    public var savedAt: Double = 0
    public var revalidation: Revalidation = .none
    /// Features and pending edits read back when the table loaded.
    public var restoredFeatures = 0
    public var restoredEdits = 0
    /// Bytes the table's files take on disk now.
    public var bytesOnDisk = 0
    /// Why a saved file was set aside (corrupt, of a newer format), if one was.
    public var setAside: String?
    /// The last failure to save (a full disk), if the last save failed.
    public var lastSaveError: FeatureCacheError?
    /// What the load brought in of the service's changes since the cache was
    /// saved (`.synchronized`).
    public var synchronized = Changes()
    /// Out of core (a memory budget and a cache folder): batches kept in
    /// segment files, those held in memory now, segments read back and let
    /// go since the table opened.
    public var segments = 0, segmentsInMemory = 0, segmentReads = 0, segmentEvictions = 0
    /// Features that left the cache since the table opened because their
    /// segment could not be read back (corrupt, missing): fetched again by
    /// the next view, populate or synchronize.
    public var lostFeatures = 0

    public init() {}

    /// Features added, changed and deleted.
    public struct Changes: Sendable, Equatable {
        public var added = 0, updated = 0, deleted = 0
    }
}
