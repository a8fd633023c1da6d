// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// The C structs of the Arrow C data interface, filled from an `ArrowExport`.
/// Each struct's private_data is a retained Swift object that owns everything
/// the struct points at (strings, child structs, buffer lists, and the batches
/// or copies the buffers live in); its release callback releases children
/// first, then that object, then marks the struct released, as the Arrow spec
/// requires.

/// A list of `count` zeroed child structs (nil when there are none), owned by
/// the parent's storage: children are released through their own callbacks,
/// their memory freed with the parent's.
private func allocateChildren<T>(_ count: Int, _ empty: T) -> UnsafeMutablePointer<UnsafeMutablePointer<T>?>? {
    guard count > 0 else { return nil }
    let list = UnsafeMutablePointer<UnsafeMutablePointer<T>?>.allocate(capacity: count)
    for index in 0..<count {
        let child = UnsafeMutablePointer<T>.allocate(capacity: 1)
        child.initialize(to: empty)
        list[index] = child
    }
    return list
}

private func deallocateChildren<T>(_ list: UnsafeMutablePointer<UnsafeMutablePointer<T>?>?, _ count: Int) {
    guard let list else { return }
    for index in 0..<count { list[index]?.deallocate() }
    list.deallocate()
}

// MARK: - Schemas

/// What one exported `ArrowSchema` points at.
private final class SchemaStorage {
    let format: UnsafeMutablePointer<CChar>
    let name: UnsafeMutablePointer<CChar>
    let metadata: UnsafeMutablePointer<CChar>?
    let children: UnsafeMutablePointer<UnsafeMutablePointer<ArrowSchema>?>?
    let childCount: Int

    init(format: String, name: String, metadata: [(key: String, value: String)], childCount: Int) {
        self.format = strdup(format)!
        self.name = strdup(name)!
        self.metadata = metadata.isEmpty ? nil : Self.encode(metadata)
        self.childCount = childCount
        children = allocateChildren(childCount, ArrowSchema())
    }

    deinit {
        free(format)
        free(name)
        metadata?.deallocate()
        deallocateChildren(children, childCount)
    }

    /// Arrow's metadata encoding: int32 pair count, then per pair int32 key
    /// length, key bytes, int32 value length, value bytes (native byte order).
    private static func encode(_ pairs: [(key: String, value: String)]) -> UnsafeMutablePointer<CChar> {
        var bytes: [UInt8] = []
        func int32(_ value: Int) { withUnsafeBytes(of: Int32(value)) { bytes += $0 } }
        int32(pairs.count)
        for (key, value) in pairs {
            int32(key.utf8.count); bytes += key.utf8
            int32(value.utf8.count); bytes += value.utf8
        }
        let out = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return out
    }
}

private let releaseSchema: @convention(c) (UnsafeMutablePointer<ArrowSchema>?) -> Void = { schema in
    guard let schema, schema.pointee.release != nil else { return }
    for index in 0..<Int(schema.pointee.n_children) {
        if let child = schema.pointee.children[index], child.pointee.release != nil { child.pointee.release(child) }
    }
    Unmanaged<SchemaStorage>.fromOpaque(schema.pointee.private_data).release()
    schema.pointee.release = nil
}

private func fillSchema(
    _ out: UnsafeMutablePointer<ArrowSchema>, format: String, name: String,
    metadata: [(key: String, value: String)] = [], flags: Int64, children: Int
) -> SchemaStorage {
    let storage = SchemaStorage(format: format, name: name, metadata: metadata, childCount: children)
    out.pointee = ArrowSchema(
        format: storage.format, name: storage.name, metadata: storage.metadata.map { UnsafePointer($0) },
        flags: flags, n_children: Int64(children), children: storage.children, dictionary: nil,
        release: releaseSchema, private_data: Unmanaged.passRetained(storage).toOpaque())
    return storage
}

/// The export's schema: a struct with one child per column.
func exportSchema(_ export: ArrowExport, into out: UnsafeMutablePointer<ArrowSchema>) {
    let root = fillSchema(out, format: "+s", name: "", flags: 0, children: export.columns.count)
    for (index, column) in export.columns.enumerated() {
        _ = fillSchema(
            root.children![index]!, format: column.type.format, name: column.name, metadata: column.metadata,
            flags: column.nullable ? Int64(ARROW_FLAG_NULLABLE) : 0, children: 0)
    }
}

// MARK: - Arrays

/// What one exported `ArrowArray` points at.
private final class ArrayStorage {
    let buffers: UnsafeMutablePointer<UnsafeRawPointer?>
    let bufferCount: Int
    let children: UnsafeMutablePointer<UnsafeMutablePointer<ArrowArray>?>?
    let childCount: Int
    /// The batches and copies the buffers live in.
    let owners: [AnyObject]

    init(buffers: [UnsafeRawPointer?], childCount: Int, owners: [AnyObject]) {
        bufferCount = buffers.count
        self.buffers = .allocate(capacity: max(buffers.count, 1))
        for (index, buffer) in buffers.enumerated() { self.buffers[index] = buffer }
        self.childCount = childCount
        self.owners = owners
        children = allocateChildren(childCount, ArrowArray())
    }

    deinit {
        buffers.deallocate()
        deallocateChildren(children, childCount)
    }
}

private let releaseArray: @convention(c) (UnsafeMutablePointer<ArrowArray>?) -> Void = { array in
    guard let array, array.pointee.release != nil else { return }
    for index in 0..<Int(array.pointee.n_children) {
        if let child = array.pointee.children[index], child.pointee.release != nil { child.pointee.release(child) }
    }
    Unmanaged<ArrayStorage>.fromOpaque(array.pointee.private_data).release()
    array.pointee.release = nil
}

private func fillArray(
    _ out: UnsafeMutablePointer<ArrowArray>, length: Int, nullCount: Int, buffers: [UnsafeRawPointer?],
    children: Int, owners: [AnyObject]
) -> ArrayStorage {
    let storage = ArrayStorage(buffers: buffers, childCount: children, owners: owners)
    out.pointee = ArrowArray(
        length: Int64(length), null_count: Int64(nullCount), offset: 0, n_buffers: Int64(buffers.count),
        n_children: Int64(children), buffers: storage.buffers, children: storage.children, dictionary: nil,
        release: releaseArray, private_data: Unmanaged.passRetained(storage).toOpaque())
    return storage
}

/// Record batch `index` of the export as a struct array.
func exportBatch(_ export: ArrowExport, _ index: Int, into out: UnsafeMutablePointer<ArrowArray>) throws(FeatureCacheError) {
    let (length, columns) = try export.batch(index)
    let root = fillArray(out, length: length, nullCount: 0, buffers: [nil], children: columns.count, owners: [])
    for (slot, column) in columns.enumerated() {
        _ = fillArray(
            root.children![slot]!, length: column.length, nullCount: column.nullCount, buffers: column.buffers,
            children: 0, owners: column.owners)
    }
}
