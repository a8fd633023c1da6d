// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// What a caller writes for one feature: values by field name (a later value
/// for the same field wins) and, optionally, a geometry as ISO WKB. For an
/// add, fields not set take the field's default or NULL; for an update only
/// what is set changes.
public struct FeatureDraft: Sendable {
    public private(set) var values: [(field: String, value: AttributeValue)] = []
    /// The new geometry as WKB; nil = none (add) or unchanged (update).
    public var geometry: [UInt8]?
    /// The system `geometry` is in; nil = the table's.
    public var geometryReference: SpatialReference?
    /// An update that removes the feature's geometry.
    public var clearsGeometry = false

    public init() {}

    public mutating func set(_ field: String, _ value: AttributeValue) {
        values.removeAll { $0.field.lowercased() == field.lowercased() }
        values.append((field, value))
    }

    public var isEmpty: Bool { values.isEmpty && geometry == nil && !clearsGeometry }
}

extension EditKind {
    public var name: String {
        switch self {
        case .add: return "add"
        case .update: return "update"
        case .delete: return "delete"
        }
    }
}

extension EditState {
    public var name: String {
        switch self {
        case .applied: return "applied"
        case .pending: return "pending"
        case .inDoubt: return "in doubt"
        case .refused: return "refused"
        }
    }
}

/// One edit as the caller sees it: pending (error = the last apply's refusal,
/// if any), or an apply's outcome for it.
public struct EditResult: Sendable {
    /// The id the caller knows the feature by: a local id (negative) for an add.
    public var objectId: Int64
    /// The service's id after an apply (an add's new id); `objectId` otherwise.
    public var serverObjectId: Int64
    public var kind: EditKind
    /// The GlobalID sent with an add, when the layer takes client GlobalIDs.
    public var globalId: String?
    /// nil: applied (or, in a pending list, not refused yet).
    public var error: FeatureCacheError?
    public var state: EditState
    /// The service's own id of the feature, as the service writes it (an
    /// OGC API item id, a WFS `gml:id`, an ArcGIS object id as text); nil for
    /// an add not applied yet.
    public var serverId: String?

    public init(
        objectId: Int64, serverObjectId: Int64, kind: EditKind, globalId: String? = nil, error: FeatureCacheError? = nil,
        state: EditState? = nil, serverId: String? = nil
    ) {
        self.objectId = objectId
        self.serverObjectId = serverObjectId
        self.kind = kind
        self.globalId = globalId
        self.error = error
        self.state = state ?? (error == nil ? .applied : .refused)
        self.serverId = serverId
    }
}

/// How an apply sends edits.
public struct ApplyOptions: Sendable {
    /// All or nothing, where the service can (ArcGIS `rollbackOnFailure`, a WFS
    /// Transaction): one refused edit refuses its whole request. Otherwise each
    /// edit is applied or refused on its own.
    public var rollbackOnFailure = true

    public init() {}
}
