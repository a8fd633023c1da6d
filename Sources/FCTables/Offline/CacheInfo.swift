// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What a table's persisted cache did when the table loaded, and where it stands.
public struct CacheInfo: Sendable, Equatable {
    /// What the table's load decided about the saved coverage. Raw values are
    /// the C ABI's `FC_CACHE_*`.
    public enum Revalidation: Int32, Sendable {
        /// Not persisted, or nothing was saved.
        case none = 0
        /// The service's evidence (an edit date, an ETag) is unchanged: every
        /// covered view is answered from the cache.
        case unchanged = 1
        /// The evidence changed: the coverage was dropped, views are fetched again.
        case stale = 2
        /// No evidence of change, and every tile and answered area past the
        /// freshness its server gave (if it gave one) and older than the
        /// time-to-live: the coverage was dropped.
        case expired = 3
        /// No evidence of change, all coverage kept, some of it only for being
        /// younger than the time-to-live.
        case withinTimeToLive = 4
        /// The service could not be reached: everything saved answers, unchecked.
        case offline = 5
        /// The service's schema, extent or spatial reference changed: the saved
        /// features were dropped.
        case schemaChanged = 6
        /// No evidence of change, and every tile and answered area still
        /// fresh by its server's word (`Cache-Control: max-age`, `Expires`):
        /// the coverage was kept with no request.
        case fresh = 7
        /// No evidence of change; some tiles and answered areas were past
        /// their server's freshness and the time-to-live and were dropped
        /// (fetched again when viewed), the rest kept.
        case partlyExpired = 8
        /// Persisted, and nothing was saved before: this table started the
        /// folder (its saves are this process's).
        case created = 9
    }

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

    public init() {}
}
