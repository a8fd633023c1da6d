// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_arcgis_table: what only ArcGIS feature-service layers have.

@_cdecl("fc_table_as_arcgis")
public func fcTableAsArcGIS(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableView(pointer, .arcgis, out)
}

@_cdecl("fc_arcgis_table_supports_pagination")
public func fcArcGISTableSupportsPagination(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    metadataGetter(pointer, out, of: .arcgis) { _, metadata in metadata.supportsPagination }
}

@_cdecl("fc_arcgis_table_capabilities")
public func fcArcGISTableCapabilities(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out, of: .arcgis) { handle, metadata in handle.borrowedCString(metadata.capabilities.joined(separator: ",")) }
}

@_cdecl("fc_arcgis_table_supported_query_formats")
public func fcArcGISTableSupportedQueryFormats(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    metadataGetter(pointer, out, of: .arcgis) { handle, metadata in handle.borrowedCString(metadata.supportedQueryFormats.joined(separator: ",")) }
}

@_cdecl("fc_arcgis_table_service_version")
public func fcArcGISTableServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    metadataGetter(pointer, out, of: .arcgis) { _, metadata in metadata.serviceVersion }
}
