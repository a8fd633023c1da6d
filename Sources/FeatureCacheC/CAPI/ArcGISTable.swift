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
    metadataGetter(pointer, out, of: .arcgis) { handle, metadata in
        handle.borrowedCString(metadata.supportedQueryFormats.joined(separator: ","))
    }
}

@_cdecl("fc_arcgis_table_service_version")
public func fcArcGISTableServiceVersion(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    metadataGetter(pointer, out, of: .arcgis) { _, metadata in metadata.serviceVersion }
}

@_cdecl("fc_arcgis_table_set_query_format")
public func fcArcGISTableSetQueryFormat(_ pointer: OpaquePointer?, _ format: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let format = try CArguments.enumValue(format, ArcGISQueryFormat.self, "query format (FC_ARCGIS_FORMAT_*)")
        try table(pointer, of: .arcgis).1.setQueryFormat(format)
    }
}

@_cdecl("fc_arcgis_table_query_format")
public func fcArcGISTableQueryFormat(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .arcgis).1.queryFormat().rawValue
    }
}

@_cdecl("fc_arcgis_table_query_format_in_use")
public func fcArcGISTableQueryFormatInUse(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .arcgis).1.queryFormatInUse().rawValue
    }
}
