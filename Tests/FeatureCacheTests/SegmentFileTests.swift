// SPDX-License-Identifier: Apache-2.0
@testable import FCData
@testable import FCDocument
@testable import FCSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Segment files (FILE-FORMAT.md): a record read whole or column by column
/// gives the batch written, and a byte changed anywhere a read reaches is
/// refused with `.storage`, naming what failed.
@Suite struct SegmentFileTests {
    /// Recorded Z/M polygons with strings and NULLs, as the readers cache them.
    private func recordedBatch() throws -> FeatureBatch {
        try Fixtures.bytes("arcgis-zm/arcgis-rest-js-polygon-zm.json").withUnsafeBytes {
            try EsriJSONReader.read($0, fields: [], objectIdField: nil)
        }.batch
    }

    private func written(_ batch: FeatureBatch) throws -> (folder: String, file: SegmentFile, location: SegmentFile.Location) {
        var template = Array("/tmp/fc-segment-test.XXXXXX".utf8CString)
        let folder = String(cString: mkdtemp(&template)!)
        let (file, locations) = try SegmentFile.write(count: 1, in: folder) { _ in batch }
        return (folder, file, locations[0])
    }

    private func damage(_ path: String, at offset: Int) {
        let descriptor = open(path, O_RDWR)
        var byte: UInt8 = 0
        _ = pread(descriptor, &byte, 1, off_t(offset))
        byte ^= 0x5A
        _ = pwrite(descriptor, &byte, 1, off_t(offset))
        close(descriptor)
    }

    @Test func columnsReadAloneEqualTheWholeBatchs() throws {
        let batch = try recordedBatch()
        let (folder, file, location) = try written(batch)
        defer { CacheFiles.removeFolder(folder) }
        let whole = try file.read(location, rows: batch.count)
        #expect(whole.count == batch.count && whole.fields == batch.fields)
        let names = Set(batch.columns.suffix(2).map { $0.field.name.uppercased().lowercased() })
        let some = try file.readColumns(location, rows: batch.count, names: names)
        #expect(some.count == batch.count)
        #expect(Set(some.columns.map { $0.field.name.lowercased() }) == names)
        for column in some.columns {
            let full = batch.columns[batch.columnIndex(named: column.field.name)!]
            for row in 0..<batch.count { #expect(column.value(row) == full.value(row)) }
        }
        // A name the batch lacks is no column (NULL to a where clause), not an error.
        #expect(try file.readColumns(location, rows: batch.count, names: ["no such field"]).columns.isEmpty)
    }

    @Test func aChangedByteIsRefusedWhereverAReadMeetsIt() throws {
        let batch = try recordedBatch()
        let last = batch.columns[batch.columns.count - 1].field.name
        // In the directory: every read fails.
        do {
            let (folder, file, location) = try written(batch)
            defer { CacheFiles.removeFolder(folder) }
            damage(file.path, at: location.offset + 12)
            #expect(throws: FeatureCacheError.self) { try file.read(location, rows: batch.count) }
            #expect(throws: FeatureCacheError.self) { try file.readColumns(location, rows: batch.count, names: [last.lowercased()]) }
        }
        // In the last byte of the body (object ids or geometry): the whole read fails; a column read does not reach it.
        do {
            let (folder, file, location) = try written(batch)
            defer { CacheFiles.removeFolder(folder) }
            damage(file.path, at: location.offset + location.length - 1)
            let error = #expect(throws: FeatureCacheError.self) { try file.read(location, rows: batch.count) }
            #expect(error?.code == .storage && error?.message.contains("checksum") == true)
            #expect(try file.readColumns(location, rows: batch.count, names: [last.lowercased()]).columns.count == 1)
        }
        // In the first column's part: reading that column fails naming it; another column reads.
        do {
            let (folder, file, location) = try written(batch)
            defer { CacheFiles.removeFolder(folder) }
            let descriptor = open(file.path, O_RDONLY)
            var directoryLength: Int64 = 0
            _ = pread(descriptor, &directoryLength, 8, off_t(location.offset))
            close(descriptor)
            // The body follows the directory (padded to 8); its first column follows the batch's 29-byte head.
            let body = location.offset + (8 + Int(directoryLength) + 7) & ~7
            damage(file.path, at: body + 29 + 8)
            let first = batch.columns[0].field.name
            let error = #expect(throws: FeatureCacheError.self) {
                try file.readColumns(location, rows: batch.count, names: [first.lowercased()])
            }
            #expect(error?.code == .storage && error?.message.contains("column \(first)") == true)
            #expect(try file.readColumns(location, rows: batch.count, names: [last.lowercased()]).columns.count == 1)
            #expect(throws: FeatureCacheError.self) { try file.read(location, rows: batch.count) }
        }
    }

    @Test func aSegmentFileOfAnEarlierLayoutIsRefused() throws {
        let batch = try recordedBatch()
        let (folder, file, _) = try written(batch)
        defer { CacheFiles.removeFolder(folder) }
        // Version 2 in the header: a pre-release format 3 build's layout.
        let descriptor = open(file.path, O_RDWR)
        var version = UInt32(2).littleEndian
        _ = pwrite(descriptor, &version, 4, 8)
        close(descriptor)
        let error = #expect(throws: FeatureCacheError.self) { try SegmentFile.open(file.name, in: folder) }
        #expect(error?.code == .storage && error?.message.contains("earlier build") == true)
    }
}
