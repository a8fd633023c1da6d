// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_ogc_table: what only OGC API - Features collections have.

@_cdecl("fc_table_as_ogc")
public func fcTableAsOGC(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    tableView(pointer, .ogcFeatures, out)
}

@_cdecl("fc_ogc_table_set_query_language")
public func fcOGCTableSetQueryLanguage(_ pointer: OpaquePointer?, _ language: Int32) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer, of: .ogcFeatures).1
        try table.setQueryLanguage(try CArguments.enumValue(language, QueryLanguage.self, "query language (FC_QUERY_LANGUAGE_*)"))
    }
}

@_cdecl("fc_ogc_table_query_language")
public func fcOGCTableQueryLanguage(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try table(pointer, of: .ogcFeatures).1.queryLanguage.rawValue
    }
}
