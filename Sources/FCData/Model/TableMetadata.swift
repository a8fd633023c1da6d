// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What loading a table learns from its service, whatever the protocol.
public struct TableMetadata: Sendable, Equatable {
    public var name: String
    public var description: String = ""
    public var fields: [FieldInfo] = []
    public var geometryType: GeometryType = .none
    public var spatialReference: SpatialReference?
    public var extent: Envelope?
    /// The field that identifies features; nil when the service names none.
    public var objectIdField: String?
    public var globalIdField: String?
    public var displayField: String = ""
    /// The most features one response may hold (ArcGIS `maxRecordCount`).
    public var maxRecordCount: Int = 1000
    /// Whether the service declared `maxRecordCount` (false: the library's default,
    /// which a caller's page size may exceed).
    public var maxRecordCountDeclared = true
    public var minScale: Double = 0
    public var maxScale: Double = 0
    public var hasZ = false
    public var hasM = false
    public var capabilities: [String] = []
    /// What the service lets a client change (nothing: read-only).
    public var editing = EditCapabilities()
    /// ArcGIS: `advancedQueryCapabilities.supportsPagination` (resultOffset/resultRecordCount).
    public var supportsPagination = false
    /// ArcGIS: `supportedQueryFormats`, e.g. ["JSON", "geoJSON", "PBF"].
    public var supportedQueryFormats: [String] = []
    /// ArcGIS `currentVersion`, 0 when not given.
    public var serviceVersion: Double = 0
    /// ArcGIS layer `type`: "Feature Layer" or "Table".
    public var layerType: String = ""
    /// Evidence of when the service's data last changed, as the service words
    /// it (ArcGIS `editingInfo.dataLastEditDate`, else `lastEditDate`; an OGC API
    /// collection's `ETag` or `Last-Modified`); nil when it gives none. A
    /// persisted cache compares it to decide whether its coverage is stale.
    public var dataVersion: String?

    public init(name: String) { self.name = name }

    public func field(named name: String) -> FieldInfo? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }
    }
}
