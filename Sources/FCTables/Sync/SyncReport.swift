// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What `FeatureTable.synchronize` did: the edits it sent (and those it kept
/// back), and how it brought the cache current. Filled as far as it got when
/// it stopped (`error`).
public struct SyncReport: Sendable {
    // Method (FC_SYNC_*): SyncReport+Method.generated.swift.

    public var method: Method = .none
    /// The apply's outcome for every pending edit (conflicts refused with `.conflict`).
    public var edits: [EditResult] = []
    /// Features new to the cache, changed in it, and gone from it.
    public var added = 0
    public var updated = 0
    public var deleted = 0
    /// Features read from the service to bring the cache current.
    public var featuresReceived = 0
    /// Why it stopped before its end; nil when it ran through.
    public var error: FeatureCacheError?

    public var uploaded: Int { edits.count(where: { $0.state == .applied }) }
    public var refused: Int { edits.count(where: { $0.state == .refused }) }
    /// The pending edits of features the service changed since they were cached.
    public var conflicts: [Int64] { edits.filter { $0.state == .refused && $0.error?.code == .conflict }.map(\.objectId) }

    public init() {}
}
