// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// A pending edit in the edit journal: every field of `LocalEdit`, its rows as
/// one-row batches (`BatchCodec`).
extension LocalEdit {
    package func write(to out: inout BinaryWriter) {
        out.i64(objectId)
        out.i32(kind.rawValue)
        for batch in [current, original] {
            out.bool(batch != nil)
            if let batch { BatchCodec.write(batch, to: &out) }
        }
        out.strings(changedFields)
        out.bool(geometryChanged)
        out.optionalString(globalId)
        out.optionalString(serviceId)
        out.bool(inDoubt)
        out.bool(lastError != nil)
        if let lastError {
            out.i32(lastError.code.rawValue)
            out.string(lastError.message)
            out.i32(lastError.httpStatus)
            out.i32(lastError.serviceCode)
        }
        out.int(revision)
        out.int(sequence)
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> LocalEdit {
        let objectId = try input.i64()
        let kindCode = try input.i32()
        guard let kind = EditKind(rawValue: kindCode) else { throw input.corrupt("edit kind \(kindCode)") }
        let current = try input.bool() ? try BatchCodec.read(from: &input) : nil
        let original = try input.bool() ? try BatchCodec.read(from: &input) : nil
        guard current.map({ $0.count == 1 }) ?? true, original.map({ $0.count == 1 }) ?? true else {
            throw input.corrupt("an edit's row is not one row")
        }
        guard kind == .delete || current != nil, kind == .add || original != nil || kind == .update else {
            throw input.corrupt("a \(kind.name) without its row")
        }
        var edit = LocalEdit(objectId: objectId, kind: kind, current: current, original: original)
        edit.changedFields = try input.strings()
        edit.geometryChanged = try input.bool()
        edit.globalId = try input.optionalString()
        edit.serviceId = try input.optionalString()
        edit.inDoubt = try input.bool()
        if try input.bool() {
            let code = try input.i32()
            let message = try input.string()
            edit.lastError = FeatureCacheError(
                FeatureCacheError.Code(rawValue: code) ?? .service, message, httpStatus: try input.i32(), serviceCode: try input.i32())
        }
        edit.revision = try input.int()
        edit.sequence = try input.int()
        return edit
    }
}
