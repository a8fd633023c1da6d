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
/// checksums before a byte is decoded.
///
/// A record is a directory, then the batch (`BatchCodec`). The directory
/// says where each column's part of the batch lies, with its own checksum,
/// so a where clause reads the columns it names and no more
/// (`readColumns`: 8 bytes a row for one number, of 43 for a point and three
/// columns).
package final class SegmentFile: Sendable {
    /// Segment files are `segment-<16 hex digits>.fcs` in the table's folder.
    package static let prefix = "segment-"
    /// The version in a segment file's header: 3, the first with directories
    /// (pre-release builds of format 3 wrote records without; theirs are refused).
    package static let version: UInt32 = 3
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
            try file.append(CacheFiles.journalHeader(kind: .segments, version: version))
            for index in 0..<count {
                let batch = batch(index)
                var body = BinaryWriter(capacity: batch.byteSize + 4096)
                let columns = BatchCodec.write(batch, to: &body)
                let directory = body.bytes.withUnsafeBytes { Directory.encoded(batch, columns: columns, body: $0) }
                let checksum = directory.withUnsafeBytes { ContentHash.of($0) }
                let length = 8 + Directory.padded(directory.count) + body.bytes.count
                var frame = BinaryWriter(capacity: 24)
                frame.int(length)
                frame.u64(checksum)
                frame.int(directory.count)  // the record's first 8 bytes
                try file.append(frame.bytes)
                locations.append(Location(offset: file.size - 8, length: length, checksum: checksum))
                try file.append(directory)
                try file.append([UInt8](repeating: 0, count: Directory.padded(directory.count) - directory.count))
                try file.append(body.bytes)
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
        guard try CacheFiles.checkHead(header, kind: .segments, path: path) == version else {
            throw FeatureCacheError(.storage, "\(path) was written by an earlier build, in a record layout this one does not read")
        }
        return file
    }

    /// The batch of one record: read, checked, decoded (its columns borrow
    /// the record's memory). `.storage` when the file no longer holds it as written.
    package func read(_ location: Location, rows: Int) throws(FeatureCacheError) -> FeatureBatch {
        try check(location)
        // Mapped memory: a segment let go leaves the process's resident set at
        // once (the allocator would keep freed segments' memory).
        let memory = try CacheFiles.anonymousMemory(location.length, for: path)
        let bytes = FrozenBytes(borrowing: memory.bytes, from: memory)
        try readFully(location.offset, location.length, into: UnsafeMutableRawPointer(mutating: bytes.base))
        let directory = try Directory(bytes[0..<bytes.count], location, path)
        let body = bytes[directory.bodyStart..<bytes.count]
        guard ContentHash.of(body) == directory.bodyChecksum else {
            throw CacheFiles.corrupt(path, "the record at \(location.offset) does not match its checksum")
        }
        var input = BinaryReader(body, what: path, within: bytes)
        let batch = try BatchCodec.read(from: &input)
        guard batch.count == rows else {
            throw CacheFiles.corrupt(path, "the record at \(location.offset) holds \(batch.count) rows, not \(rows)")
        }
        guard input.isAtEnd else { throw CacheFiles.corrupt(path, "the record at \(location.offset) holds more than its batch") }
        return batch
    }

    /// The columns of one record named in `names` (lowercased; a name the
    /// batch lacks is skipped, as a NULL column), read alone and checked:
    /// a batch of those columns only (`FeatureBatch.columnsOnly`), for a
    /// where clause to select rows in. `.storage` as `read`.
    package func readColumns(_ location: Location, rows: Int, names: Set<String>) throws(FeatureCacheError) -> FeatureBatch {
        try check(location)
        // The directory: in the first 4 KB read, or read again whole when longer.
        var head = try readBytes(location.offset, min(location.length, 4096))
        let directoryEnd = 8 + Int(UInt64(littleEndian: head.base.loadUnaligned(as: UInt64.self)) & 0xFFFF_FFFF)
        if directoryEnd > head.count, directoryEnd <= location.length { head = try readBytes(location.offset, directoryEnd) }
        let directory = try Directory(head[0..<head.count], location, path)
        var columns: [Column] = []
        for part in directory.columns where names.contains(part.name.lowercased()) {
            // From the 8-byte boundary at or before the part, so its buffers align as written.
            let lead = part.start & 7
            let start = location.offset + directory.bodyStart + part.start - lead
            let bytes = try readBytes(start, lead + part.length)
            guard ContentHash.of(bytes[lead..<bytes.count]) == part.checksum else {
                throw CacheFiles.corrupt(path, "column \(part.name) of the record at \(location.offset) does not match its checksum")
            }
            var input = BinaryReader(bytes[0..<bytes.count], what: path, within: bytes)
            _ = try input.raw(count: lead)
            columns.append(try BatchCodec.readColumn(&input, rows: rows))
            guard input.isAtEnd else {
                throw CacheFiles.corrupt(path, "column \(part.name) of the record at \(location.offset) is longer than its part")
            }
        }
        return FeatureBatch.columnsOnly(columns, count: rows)
    }

    private func check(_ location: Location) throws(FeatureCacheError) {
        guard location.offset >= CacheFiles.headerSize, location.length > 8, location.length <= CacheFiles.maxFileSize else {
            throw CacheFiles.corrupt(path, "a record of \(location.length) bytes at \(location.offset)")
        }
    }

    /// `count` bytes from `offset`, in memory of their own (the allocator's:
    /// a where clause reads many small parts, each let go at once).
    private func readBytes(_ offset: Int, _ count: Int) throws(FeatureCacheError) -> FrozenBytes {
        var failure: FeatureCacheError?
        let bytes = FrozenBytes(count: count) { target in
            do throws(FeatureCacheError) { try readFully(offset, count, into: target) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    private func readFully(_ offset: Int, _ count: Int, into target: UnsafeMutableRawPointer) throws(FeatureCacheError) {
        let done = try CacheFiles.read(descriptor, into: target, count: count, at: offset, path: path)
        guard done == count else { throw CacheFiles.corrupt(path, "it ends inside a record (at \(offset + done))") }
    }

    /// A record's directory: its length (i64), then the body's checksum
    /// (u64), the column count (u32) and per column its name, start and
    /// length in the body (i64 each) and checksum (u64); zero padding to 8,
    /// then the body. The record's checksum (in the features file) is the
    /// directory's.
    private struct Directory {
        struct Part {
            let name: String
            let start: Int
            let length: Int
            let checksum: UInt64
        }
        let bodyChecksum: UInt64
        let columns: [Part]
        /// Where the body starts in the record.
        let bodyStart: Int

        static func padded(_ count: Int) -> Int { (count + 7) & ~7 }

        /// The directory of `body` (a batch as BatchCodec wrote it, its columns at `ranges`).
        static func encoded(_ batch: FeatureBatch, columns ranges: [Range<Int>], body: UnsafeRawBufferPointer) -> [UInt8] {
            var out = BinaryWriter()
            out.u64(ContentHash.of(body))
            out.u32(UInt32(ranges.count))
            for (column, range) in zip(batch.columns, ranges) {
                out.string(column.field.name)
                out.int(range.lowerBound)
                out.int(range.count)
                out.u64(ContentHash.of(UnsafeRawBufferPointer(rebasing: body[range])))
            }
            return out.bytes
        }

        /// The directory at the start of `record` (at least its directory),
        /// checked against the location's checksum, then read.
        init(_ raw: UnsafeRawBufferPointer, _ location: SegmentFile.Location, _ path: String) throws(FeatureCacheError) {
            let length = raw.count >= 8 ? Int(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))) : -1
            guard length >= 12, length <= raw.count - 8, Self.padded(8 + length) <= location.length else {
                throw CacheFiles.corrupt(path, "the record at \(location.offset) has no directory")
            }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[8..<(8 + length)])
            guard ContentHash.of(bytes) == location.checksum else {
                throw CacheFiles.corrupt(path, "the record at \(location.offset) does not match its checksum")
            }
            bodyStart = Self.padded(8 + length)
            let bodyLength = location.length - bodyStart
            var input = BinaryReader(bytes, what: path)
            bodyChecksum = try input.u64()
            let count = Int(try input.u32())
            guard count <= input.remaining / 32 else { throw input.corrupt("\(count) columns cannot fit") }
            var parts: [Part] = []
            parts.reserveCapacity(count)
            for _ in 0..<count {
                let part = Part(
                    name: try input.string(), start: try input.int(limit: bodyLength), length: try input.int(limit: bodyLength),
                    checksum: try input.u64())
                guard part.start + part.length <= bodyLength else { throw input.corrupt("column \(part.name) lies outside its record") }
                parts.append(part)
            }
            columns = parts
        }
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
