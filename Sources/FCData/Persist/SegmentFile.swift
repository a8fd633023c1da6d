// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// A file of segments: batches a table's memory budget moved out of memory,
/// each a record read back alone when a query needs it (FILE-FORMAT.md,
/// "Segment files"). Written once, whole, under a temporary name, flushed and
/// renamed: a file of this name is complete; the features file that names it
/// is written after it, so a kill in between leaves an unnamed file, removed
/// at the next save. Never changed after: a batch whose rows die keeps its
/// record, with those rows dead in the features file's liveness bits.
///
/// Records are read with `pread` from a descriptor held open for the file's
/// life (not mapped: a file truncated under a mapping would kill the process
/// with SIGBUS; a short read is an error), and checked against their
/// checksum before a byte is decoded.
package final class SegmentFile: Sendable {
    /// Segment files are `segment-<16 hex digits>.fcs` in the table's folder.
    package static let prefix = "segment-"
    package let name: String
    package let path: String
    private let descriptor: Int32

    /// Where one record lies, and what it must hash to.
    package struct Location: Sendable, Equatable {
        package let offset: Int
        package let length: Int
        package let checksum: UInt64

        package init(offset: Int, length: Int, checksum: UInt64) {
            self.offset = offset
            self.length = length
            self.checksum = checksum
        }
    }

    private init(name: String, path: String, descriptor: Int32) {
        self.name = name
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Whether `name` can be a segment file's (what a features file names is checked against this).
    package static func isSegmentName(_ name: String) -> Bool {
        let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast(4)
        return name.hasPrefix(prefix) && name.hasSuffix(".fcs") && digits.count == 16
            && digits.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Writes `count` batches (`batch(i)`, asked for one at a time, so only
    /// one is made at once) as a new segment file in `folder`, flushed and
    /// renamed into place, and returns it open with each batch's record.
    package static func write(
        count: Int, in folder: String, batch: (Int) -> FeatureBatch
    ) throws(FeatureCacheError) -> (SegmentFile, [Location]) {
        var random = SystemRandomNumberGenerator()
        let digits = String(random.next() as UInt64, radix: 16)
        let name = prefix + String(repeating: "0", count: 16 - digits.count) + digits + ".fcs"
        let path = CacheFiles.join(folder, name)
        // Record by record, so the run is never held twice in memory.
        let temporary = "\(path).tmp-\(getpid())"
        var locations: [Location] = []
        locations.reserveCapacity(count)
        do throws(FeatureCacheError) {
            let file = try CacheFiles.AppendFile(temporary, truncating: true)
            try file.append(CacheFiles.journalHeader(kind: .segments))
            for index in 0..<count {
                let batch = batch(index)
                var record = BinaryWriter(capacity: batch.byteSize + 4096)
                BatchCodec.write(batch, to: &record)
                let checksum = record.bytes.withUnsafeBytes { ContentHash.of($0) }
                var frame = BinaryWriter(capacity: 16)
                frame.int(record.bytes.count)
                frame.u64(checksum)
                try file.append(frame.bytes)
                locations.append(Location(offset: file.size, length: record.bytes.count, checksum: checksum))
                try file.append(record.bytes)
                // The next record starts on an 8-byte boundary, as its buffers expect.
                if file.size & 7 != 0 { try file.append([UInt8](repeating: 0, count: 8 - file.size & 7)) }
            }
            try file.sync()
            try CacheFiles.moveIntoPlace(temporary, to: path)
        } catch {
            CacheFiles.remove(temporary)
            throw error
        }
        return (try open(name, in: folder), locations)
    }

    /// The segment file `name` in `folder`, open for reading; its header checked.
    package static func open(_ name: String, in folder: String) throws(FeatureCacheError) -> SegmentFile {
        let path = CacheFiles.join(folder, name)
        guard isSegmentName(name) else { throw FeatureCacheError(.storage, "\(path) is not a segment file's name") }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FeatureCacheError(.storage, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let file = SegmentFile(name: name, path: path, descriptor: descriptor)
        var header = [UInt8](repeating: 0, count: CacheFiles.headerSize)
        let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read == CacheFiles.headerSize else { throw CacheFiles.corrupt(path, "it is shorter than its header") }
        _ = try CacheFiles.checkHead(header, kind: .segments, path: path)
        return file
    }

    /// The batch of one record: read, checked, decoded (its columns borrow
    /// the record's memory). `.storage` when the file no longer holds it as written.
    package func read(_ location: Location, rows: Int) throws(FeatureCacheError) -> FeatureBatch {
        guard location.offset >= CacheFiles.headerSize, location.length > 0, location.length <= CacheFiles.maxFileSize else {
            throw CacheFiles.corrupt(path, "a record of \(location.length) bytes at \(location.offset)")
        }
        // Mapped memory: a segment let go leaves the process's resident set at
        // once (the allocator would keep freed segments' memory).
        let memory = try CacheFiles.anonymousMemory(location.length, for: path)
        let bytes = FrozenBytes(borrowing: memory.bytes, from: memory)
        let done = try CacheFiles.read(
            descriptor, into: UnsafeMutableRawPointer(mutating: bytes.base), count: location.length, at: location.offset, path: path)
        guard done == location.length else {
            throw CacheFiles.corrupt(path, "it ends inside a record (at \(location.offset + done))")
        }
        let whole = bytes[0..<bytes.count]
        guard ContentHash.of(whole) == location.checksum else {
            throw CacheFiles.corrupt(path, "the record at \(location.offset) does not match its checksum")
        }
        var input = BinaryReader(whole, what: path, within: bytes)
        let batch = try BatchCodec.read(from: &input)
        guard batch.count == rows else {
            throw CacheFiles.corrupt(path, "the record at \(location.offset) holds \(batch.count) rows, not \(rows)")
        }
        guard input.isAtEnd else { throw CacheFiles.corrupt(path, "the record at \(location.offset) holds more than its batch") }
        return batch
    }

    /// Removes the segment files in `folder` that `keeping` does not name
    /// (those a kill left before the features file named them, and those
    /// no batch uses any more).
    package static func removeUnnamed(in folder: String, keeping: Set<String>) {
        for name in CacheFiles.entries(of: folder) where name.hasPrefix(prefix) && !keeping.contains(name) {
            CacheFiles.remove(CacheFiles.join(folder, name))
        }
    }

    /// Bytes the segment files in `folder` take.
    package static func bytes(in folder: String) -> Int {
        CacheFiles.entries(of: folder).filter { $0.hasPrefix(prefix) }.reduce(0) {
            $0 + CacheFiles.size(CacheFiles.join(folder, $1))
        }
    }
}
