// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

// fc_table_add_change_observer, fc_table_remove_change_observer: what changed
// in a table's cache, told once per change, in order.

private struct ChangeCallback: @unchecked Sendable {
    let function: fc_change_callback
    let userData: UnsafeMutableRawPointer?
    let handle: Handle
}

@_cdecl("fc_table_add_change_observer")
public func fcTableAddChangeObserver(
    _ pointer: OpaquePointer?, _ callback: fc_change_callback?, _ userData: UnsafeMutableRawPointer?,
    _ outToken: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, table) = try table(pointer)
        guard let callback else { throw FeatureCacheError(.invalidArgument, "callback is NULL") }
        let observer = ChangeCallback(function: callback, userData: userData, handle: handle)
        // The observer holds its handle; freeing the handle removes the
        // observer, which ends that reference cycle.
        let token = table.addChangeObserver { change in
            tell(change, to: observer)
        }
        handle.changeObserverTokens.withLock { $0.append(token) }
        outToken?.pointee = token
    }
}

@_cdecl("fc_table_remove_change_observer")
public func fcTableRemoveChangeObserver(_ pointer: OpaquePointer?, _ token: UInt64) -> Int32 {
    status { () throws(FeatureCacheError) in
        let (handle, table) = try table(pointer)
        guard table.removeChangeObserver(token) else {
            throw FeatureCacheError(.invalidArgument, "no change observer of this table has token \(token)")
        }
        handle.changeObserverTokens.withLock { $0.removeAll { $0 == token } }
    }
}

/// Removes the change observers registered through a table handle being freed.
func removeChangeObservers(of handle: Handle, _ table: FeatureTable) {
    let tokens = handle.changeObserverTokens.withLock { tokens in
        defer { tokens.removeAll() }
        return tokens
    }
    for token in tokens { table.removeChangeObserver(token) }
}

private func tell(_ change: TableChange, to observer: ChangeCallback) {
    change.added.withUnsafeBufferPointer { added in
        change.updated.withUnsafeBufferPointer { updated in
            change.deleted.withUnsafeBufferPointer { deleted in
                let extent = change.extent
                var told = fc_change(
                    struct_size: UInt32(MemoryLayout<fc_change>.size), cause: change.cause.rawValue,
                    added: added.baseAddress, added_count: Int64(added.count),
                    updated: updated.baseAddress, updated_count: Int64(updated.count),
                    deleted: deleted.baseAddress, deleted_count: Int64(deleted.count),
                    extent: fc_envelope(
                        xmin: extent?.xmin ?? .nan, ymin: extent?.ymin ?? .nan, xmax: extent?.xmax ?? .nan,
                        ymax: extent?.ymax ?? .nan, wkid: Int32(extent?.spatialReference?.effectiveWkid ?? 0)))
                observer.function(observer.handle.pointer, &told, observer.userData)
            }
        }
    }
}
