// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_table options: the one path to what only one kind of table has.

private func declaredOption(_ pointer: OpaquePointer?, _ index: Int32) throws(FeatureCacheError) -> (Handle, SourceOptionInfo) {
    let (handle, table) = try table(pointer)
    return (handle, try CArguments.element(table.options, index, "option index"))
}

@_cdecl("fc_table_option_count")
public func fcTableOptionCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int32(clamping: try table(pointer).1.options.count) }
}

@_cdecl("fc_table_option_name")
public func fcTableOptionName(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, option) = try declaredOption(pointer, index)
        return (handle, option.name)
    }
}

@_cdecl("fc_table_option_values")
public func fcTableOptionValues(_ pointer: OpaquePointer?, _ index: Int32, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    borrowedOutput(out) { () throws(FeatureCacheError) in
        let (handle, option) = try declaredOption(pointer, index)
        return (handle, option.values?.joined(separator: ",") ?? "")
    }
}

@_cdecl("fc_table_get_option")
public func fcTableGetOption(
    _ pointer: OpaquePointer?, _ name: UnsafePointer<CChar>?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        return try CArguments.ownedString(try table.option(try CArguments.string(name, "name")))
    }
}

@_cdecl("fc_table_set_option")
public func fcTableSetOption(_ pointer: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        try table.setOption(try CArguments.string(name, "name"), try CArguments.string(value, "value"))
    }
}
