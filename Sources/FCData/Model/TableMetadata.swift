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
    /// What the service lets a client change (nothing: read-only).
    public var editing = EditCapabilities()
    /// What one protocol alone reports of the layer (ArcGIS
    /// `supportedQueryFormats`, a WFS's version…), each under the name of the
    /// report-only table option that shows it (`fc_table_get_option`). The
    /// core keeps and persists them and reads none: the adapter that set them
    /// gives them their meaning.
    public var sourceFacts: [String: String] = [:]
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
