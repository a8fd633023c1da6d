// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// What an `fc_feature_edit` handle holds: a draft C may change from any thread.
final class FeatureEditBox: Sendable {
    let draft = Locked(FeatureDraft())
}

/// What an `fc_edit_list` handle holds: the entries, fixed.
final class EditList: Sendable {
    let entries: [EditResult]
    init(_ entries: [EditResult]) { self.entries = entries }
}

private func draft(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> FeatureDraft {
    try (Handles.borrow(pointer, .featureEdit, "edit").object as! FeatureEditBox).draft.withLock { $0 }
}

private func change(_ pointer: OpaquePointer?, _ body: (inout FeatureDraft) throws(FeatureCacheError) -> Void) -> Int32 {
    status { () throws(FeatureCacheError) in
        let box = try Handles.borrow(pointer, .featureEdit, "edit").object as! FeatureEditBox
        try box.draft.withLock { (draft) throws(FeatureCacheError) in try body(&draft) }
    }
}

private func set(
    _ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?, _ value: () throws(FeatureCacheError) -> AttributeValue
) -> Int32 {
    change(pointer) { (draft) throws(FeatureCacheError) in
        let name = try CArguments.string(field, "field")
        guard !name.isEmpty else { throw FeatureCacheError(.invalidArgument, "field is empty") }
        draft.set(name, try value())
    }
}

@_cdecl("fc_feature_edit_create")
public func fcFeatureEditCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        try CArguments.output(out).pointee = Handles.export(Handle(.featureEdit, FeatureEditBox()))
    }
}

@_cdecl("fc_feature_edit_free")
public func fcFeatureEditFree(_ pointer: OpaquePointer?) {
    _ = Handles.take(pointer, .featureEdit)
}

@_cdecl("fc_feature_edit_set_null")
public func fcFeatureEditSetNull(_ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?) -> Int32 {
    set(pointer, field) { () throws(FeatureCacheError) in .null }
}

@_cdecl("fc_feature_edit_set_int64")
public func fcFeatureEditSetInt64(_ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?, _ value: Int64) -> Int32 {
    set(pointer, field) { () throws(FeatureCacheError) in .integer(value) }
}

@_cdecl("fc_feature_edit_set_double")
public func fcFeatureEditSetDouble(_ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?, _ value: Double) -> Int32 {
    set(pointer, field) { () throws(FeatureCacheError) in .double(value) }
}

@_cdecl("fc_feature_edit_set_string")
public func fcFeatureEditSetString(_ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    set(pointer, field) { () throws(FeatureCacheError) in .text(try CArguments.string(value, "value")) }
}

@_cdecl("fc_feature_edit_set_bool")
public func fcFeatureEditSetBool(_ pointer: OpaquePointer?, _ field: UnsafePointer<CChar>?, _ value: Bool) -> Int32 {
    set(pointer, field) { () throws(FeatureCacheError) in .boolean(value) }
}

@_cdecl("fc_feature_edit_set_geometry_wkb")
public func fcFeatureEditSetGeometryWKB(_ pointer: OpaquePointer?, _ wkb: UnsafePointer<UInt8>?, _ length: Int, _ wkid: Int32) -> Int32 {
    change(pointer) { (draft) throws(FeatureCacheError) in
        guard wkid >= 0 else { throw FeatureCacheError(.invalidArgument, "wkid must be >= 0 (0 = the table's), not \(wkid)") }
        guard let wkb else {
            draft.geometry = nil
            draft.geometryReference = nil
            return
        }
        guard length >= 0 else { throw FeatureCacheError(.invalidArgument, "length must be >= 0") }
        let bytes = Array(UnsafeBufferPointer(start: wkb, count: length))
        _ = try VertexGeometry(wkb: bytes)  // malformed WKB is the caller's error, reported here
        draft.geometry = bytes
        draft.geometryReference = wkid == 0 ? nil : SpatialReference(wkid: wkid)
        draft.clearsGeometry = false
    }
}

@_cdecl("fc_feature_edit_clear_geometry")
public func fcFeatureEditClearGeometry(_ pointer: OpaquePointer?) -> Int32 {
    change(pointer) { (draft) throws(FeatureCacheError) in
        draft.geometry = nil
        draft.clearsGeometry = true
    }
}

@_cdecl("fc_table_can_edit")
public func fcTableCanEdit(_ pointer: OpaquePointer?, _ kind: Int32, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        let kind = try CArguments.enumValue(kind, EditKind.self, "edit kind (FC_EDIT_*)")
        let editing = try table(pointer).1.metadata().editing
        switch kind {
        case .add: return editing.canAdd
        case .update: return editing.canUpdate
        case .delete: return editing.canDelete
        }
    }
}

@_cdecl("fc_table_add_feature")
public func fcTableAddFeature(_ pointer: OpaquePointer?, _ edit: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    out?.pointee = 0
    return status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        let id = try table.addFeature(try draft(edit))
        out?.pointee = id
    }
}

@_cdecl("fc_table_update_feature")
public func fcTableUpdateFeature(_ pointer: OpaquePointer?, _ objectId: Int64, _ edit: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        try table.updateFeature(objectId, try draft(edit))
    }
}

@_cdecl("fc_table_delete_feature")
public func fcTableDeleteFeature(_ pointer: OpaquePointer?, _ objectId: Int64) -> Int32 {
    status { () throws(FeatureCacheError) in try table(pointer).1.deleteFeature(objectId) }
}

@_cdecl("fc_table_undo_edits")
public func fcTableUndoEdits(
    _ pointer: OpaquePointer?, _ ids: UnsafePointer<Int64>?, _ count: Int, _ out: UnsafeMutablePointer<Int64>?
) -> Int32 {
    out?.pointee = 0
    return status { () throws(FeatureCacheError) in
        let table = try table(pointer).1
        guard count >= 0, ids != nil || count == 0 else {
            throw FeatureCacheError(.invalidArgument, "object_ids is NULL with a count of \(count)")
        }
        let list = ids.map { Array(UnsafeBufferPointer(start: $0, count: count)) }
        out?.pointee = Int64(table.undoEdits(list))
    }
}

@_cdecl("fc_table_has_local_edits")
public func fcTableHasLocalEdits(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in try table(pointer).1.hasLocalEdits }
}

@_cdecl("fc_table_get_local_edits")
public func fcTableGetLocalEdits(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = Handles.export(Handle(.editList, EditList(try table(pointer).1.localEdits)))
    }
}

// MARK: - Apply

/// `fc_apply_options` as the library reads it.
struct CApplyOptions {
    var options = ApplyOptions()
    var progress: fc_progress_callback?
    var progressUserData = UserData(nil)

    static var defaults: fc_apply_options {
        fc_apply_options(
            struct_size: UInt32(MemoryLayout<fc_apply_options>.size), rollback_on_failure: true, progress: nil, progress_user_data: nil)
    }

    init(_ pointer: UnsafePointer<fc_apply_options>?) throws(FeatureCacheError) {
        guard let pointer else { return }
        let size = try CArguments.versionedSize(pointer, fc_apply_options.self, "fc_apply_options")
        var given = Self.defaults
        CArguments.readVersioned(pointer, size: size, over: &given)
        options.rollbackOnFailure = given.rollback_on_failure
        progress = given.progress
        progressUserData = UserData(given.progress_user_data)
    }
}

@_cdecl("fc_apply_options_init")
public func fcApplyOptionsInit(_ options: UnsafeMutablePointer<fc_apply_options>?, _ structSize: Int) -> Int32 {
    status { () throws(FeatureCacheError) in
        try CArguments.initVersioned(options, structSize, defaults: CApplyOptions.defaults, "fc_apply_options")
    }
}

private func applyWork(
    _ pointer: OpaquePointer?, _ options: UnsafePointer<fc_apply_options>?
) throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue {
    let table = try table(pointer).1
    let given = try CApplyOptions(options)
    let (settings, callback, userData) = (given.options, given.progress, given.progressUserData)
    return { (operation) async throws(FeatureCacheError) -> OperationValue in
        let report = await table.applyEditsReporting(options: settings, progress: operation.progressReporter(callback, userData))
        guard let error = report.error else { return .edits(report.results) }
        operation.keepPartial(.edits(report.results))  // handed over although the apply failed
        throw error
    }
}

@_cdecl("fc_table_apply_edits_start")
public func fcTableApplyEditsStart(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_apply_options>?,
    _ callback: fc_operation_callback?, _ userData: UnsafeMutableRawPointer?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    startOperation(out, callback, userData) { () throws(FeatureCacheError) in try applyWork(table, options) }
}

@_cdecl("fc_table_apply_edits")
public func fcTableApplyEdits(
    _ table: OpaquePointer?, _ options: UnsafePointer<fc_apply_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let edits = try runOperation(
            "fc_table_apply_edits", \.edits, partial: { out?.pointee = Handles.export(Handle(.editList, EditList($0))) }
        ) {
            () throws(FeatureCacheError) in try applyWork(table, options)
        }
        out?.pointee = Handles.export(Handle(.editList, EditList(edits)))
    }
}

@_cdecl("fc_operation_take_edit_list")
public func fcOperationTakeEditList(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let edits = try operation(pointer).take(
            \.edits,
            wrongKind: "the operation is neither an apply nor a synchronize (fc_table_apply_edits_start, fc_table_synchronize_start)",
            partialToo: true)
        out.pointee = Handles.export(Handle(.editList, EditList(edits)))
    }
}

// MARK: - Edit lists

private func editList(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> (Handle, EditList) {
    let handle = try Handles.borrow(pointer, .editList, "list")
    return (handle, handle.object as! EditList)
}

@_cdecl("fc_edit_list_count")
public func fcEditListCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in Int64(try editList(pointer).1.entries.count) }
}

@_cdecl("fc_edit_list_get")
public func fcEditListGet(_ pointer: OpaquePointer?, _ index: Int64, _ out: UnsafeMutablePointer<fc_edit_info>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, list) = try editList(pointer)
        let out = try CArguments.output(out)
        let size = try CArguments.versionedSize(UnsafePointer(out), fc_edit_info.self, "fc_edit_info")
        guard index >= 0, index < list.entries.count else {
            throw FeatureCacheError(.invalidArgument, "index \(index) is out of range (0..<\(list.entries.count))")
        }
        let entry = list.entries[Int(index)]
        var info = fc_edit_info(
            struct_size: UInt32(size), object_id: entry.objectId, server_object_id: entry.serverObjectId, kind: entry.kind.rawValue,
            status: entry.error?.code.rawValue ?? 0, service_code: entry.error?.serviceCode ?? 0,
            message: handle.borrowedCString(entry.error?.message ?? ""), global_id: handle.borrowedCString(entry.globalId ?? ""),
            state: entry.state.rawValue, server_id: handle.borrowedCString(entry.serverId ?? ""))
        CArguments.copyVersioned(&info, to: out, size: size)
    }
}

@_cdecl("fc_table_get_server_id")
public func fcTableGetServerId(
    _ pointer: OpaquePointer?, _ objectId: Int64, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        guard let text = try table(pointer).1.serverId(of: objectId) else {
            throw FeatureCacheError(
                .notFound,
                objectId < 0
                    ? "feature \(objectId) is a local add: the service gives it an id when the add is applied"
                    : "the table never read the service's id of feature \(objectId) (a text id read in an earlier run): fetch it again")
        }
        return try CArguments.ownedString(text)
    }
}

@_cdecl("fc_edit_list_free")
public func fcEditListFree(_ pointer: OpaquePointer?) {
    _ = Handles.take(pointer, .editList)
}
