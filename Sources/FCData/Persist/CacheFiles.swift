// SPDX-License-Identifier: Apache-2.0
import FCSupport

#if canImport(Glibc)
import Glibc
#endif

/// The one place the library touches the file system: the persisted cache's
/// files, written whole and atomically (a temporary file, flushed, renamed
/// over the old one, the folder flushed), read whole and checked, appended to
/// (the edit journal), locked and set aside.
///
/// Every file starts with the same 32-byte header: the magic `FCCACHE\0`, the
/// format version (u32), the file kind (u32), the payload's length (u64) and
/// its `ContentHash` (u64), all little-endian. FILE-FORMAT.md describes the rest.
package enum CacheFiles {
    package static let magic: [UInt8] = Array("FCCACHE\0".utf8)
    package static let headerSize = 32
    /// The format this build writes; it reads this one and the earlier ones
    /// (FILE-FORMAT.md, "Versions"), and sets a file of a later one aside.
    /// 2: the table metadata keeps protocol facts as named pairs.
    /// 3: a features file may name segment files holding batches; one that
    /// names none is still written as 2, which earlier builds read.
    package static let formatVersion: UInt32 = 3
    /// The version files are written in unless they hold what only a later
    /// one has (then `formatVersion`): earlier builds keep reading them.
    package static let plainVersion: UInt32 = 2
    /// The largest file read back: half the machine's memory (the cache is
    /// held in memory; a larger file, whatever put it there, is not read).
    package static let maxFileSize = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE))) / 2

    package enum Kind: UInt32, Sendable {
        case features = 1
        case edits = 2
        /// A whole answer a source keeps (a document of features): `answer.fcc`.
        case answer = 3
        /// The pages a resumable populate took so far: `populate.fcj`.
        case populate = 4
        /// Features a table's memory budget moved to disk: `segment-*.fcs`
        /// (SegmentFile), named by the features file. Format 3 on.
        case segments = 5
    }

    // MARK: - Whole files

    /// The header and payload, as a file holds them.
    package static func framed(_ payload: [UInt8], kind: Kind, version: UInt32 = plainVersion) -> [UInt8] {
        var out = BinaryWriter(capacity: payload.count + headerSize)
        for byte in magic { out.u8(byte) }
        out.u32(version)
        out.u32(kind.rawValue)
        out.u64(UInt64(payload.count))
        out.u64(payload.withUnsafeBytes { ContentHash.of($0) })
        var bytes = out.bytes
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// Replaces `path` with `payload`: readers see the old file or the new one,
    /// whole, whatever happens meanwhile (a crash, a kill, a full disk).
    package static func writeAtomically(
        _ payload: [UInt8], kind: Kind, version: UInt32 = plainVersion, to path: String
    ) throws(FeatureCacheError) {
        try replace(path, with: framed(payload, kind: kind, version: version))
    }

    /// Replaces `path` with `bytes` as they are (temporary file, flush, rename).
    package static func replace(_ path: String, with bytes: [UInt8]) throws(FeatureCacheError) {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        do throws(FeatureCacheError) {
            try writeAll(descriptor, bytes, path: temporary)
            guard fsync(descriptor) == 0 else { throw failure("cannot flush \(temporary)") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace \(path)")
            unlink(temporary)
            throw error
        }
        syncFolder(of: path)
    }

    /// Renames a written and flushed file into place, and flushes the folder.
    package static func moveIntoPlace(_ temporary: String, to path: String) throws(FeatureCacheError) {
        guard Glibc.rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to \(path)") }
        syncFolder(of: path)
    }

    /// A whole file, checked: header, version, kind, length and checksum; its
    /// content starts at `headerSize`. nil when there is no such file.
    package static func read(_ path: String, kind: Kind) throws(FeatureCacheError) -> [UInt8]? {
        guard let bytes = try readRaw(path) else { return nil }
        try check(bytes, kind: kind, path: path)
        return bytes
    }

    /// A whole file in memory of its own (anonymous, pre-faulted in one call:
    /// reading 83 MB into fresh malloc'd memory page by page cost twice as long).
    package final class WholeFile: @unchecked Sendable {
        package let bytes: UnsafeRawBufferPointer

        fileprivate init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        deinit {
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), max(bytes.count, 1)) }
        }
    }

    /// `count` bytes of memory of their own, zeroed, mapped (not from the
    /// allocator: let go, they leave the process at once, where freed
    /// malloc memory may stay resident).
    package static func anonymousMemory(_ count: Int, for path: String) throws(FeatureCacheError) -> WholeFile {
        // Pre-faulted in one call: pread into pages faulted one by one cost more than the read.
        guard
            let memory = mmap(nil, max(count, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
            memory != MAP_FAILED
        else { throw failure("cannot allocate \(count) bytes for \(path)") }
        return WholeFile(UnsafeRawBufferPointer(start: memory, count: count))
    }

    /// A whole file as it is, unchecked, in memory of its own; nil when there is none.
    package static func readWhole(_ path: String) throws(FeatureCacheError) -> WholeFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open \(path)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("cannot read \(path)") }
        let size = Int(info.st_size)
        guard size <= maxFileSize else {
            throw FeatureCacheError(.storage, "\(path) is \(size) bytes, more than half of this machine's memory")
        }
        guard let memory = mmap(nil, max(size, 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
            memory != MAP_FAILED
        else { throw failure("cannot allocate \(size) bytes for \(path)") }
        let whole = WholeFile(UnsafeRawBufferPointer(start: memory, count: size))
        guard try read(descriptor, into: memory, count: size, path: path) == size else {
            throw corrupt(path, "it shrank while it was read")
        }
        return whole
    }

    /// Reads up to `count` bytes into `target`, stopping early only at the
    /// file's end; how many it read.
    /// From `offset` when given (`pread`: a segment's record), else from where the descriptor is.
    package static func read(
        _ descriptor: Int32, into target: UnsafeMutableRawPointer, count: Int, at offset: Int? = nil, path: String
    ) throws(FeatureCacheError) -> Int {
        var done = 0
        while done < count {
            let got =
                offset.map { pread(descriptor, target + done, count - done, off_t($0 + done)) }
                ?? Glibc.read(descriptor, target + done, count - done)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw failure("cannot read \(path)") }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Up to the first `count` bytes of a file, unchecked; nil when there is none.
    package static func readHead(_ path: String, count: Int) throws(FeatureCacheError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open \(path)")
        }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: max(count, 1))
        let done = head.withUnsafeMutableBytes { bytes in
            Result { () throws(FeatureCacheError) in try read(descriptor, into: bytes.baseAddress!, count: count, path: path) }
        }
        return Array(head[0..<(try done.get())])
    }

    /// Checks the header of a framed file's first bytes (magic, version,
    /// kind; not the checksum, which needs it whole); its version.
    package static func checkHead(_ head: [UInt8], kind: Kind, path: String) throws(FeatureCacheError) -> UInt32 {
        let checked = head.withUnsafeBytes { raw in Result { () throws(FeatureCacheError) in try checkHeader(raw, kind: kind, path: path) }
        }
        return try checked.get()
    }

    /// What every file's header must say, whatever follows: the magic, a
    /// version this build reads, the kind expected; its version.
    private static func checkHeader(_ raw: UnsafeRawBufferPointer, kind: Kind, path: String) throws(FeatureCacheError) -> UInt32 {
        guard raw.count >= headerSize else { throw corrupt(path, "it is \(raw.count) bytes, shorter than its header") }
        guard raw[0..<8].elementsEqual(magic) else { throw corrupt(path, "it is not a FeatureCache file") }
        var header = BinaryReader(UnsafeRawBufferPointer(rebasing: raw[8..<16]), what: path)
        let version = try header.u32()
        guard version <= formatVersion, version > 0 else {
            throw FeatureCacheError(
                .storage, "\(path) was written in cache format \(version); this FeatureCache reads format \(formatVersion) and older")
        }
        let fileKind = try header.u32()
        guard fileKind == kind.rawValue else { throw corrupt(path, "it holds file kind \(fileKind), not \(kind.rawValue)") }
        return version
    }

    /// A whole file as it is, unchecked, as an array (journals); nil when there is none.
    package static func readRaw(_ path: String) throws(FeatureCacheError) -> [UInt8]? {
        try readWhole(path).map { Array($0.bytes) }
    }

    /// The header of an append-only file (a journal): length and checksum 0,
    /// each record carries its own.
    package static func journalHeader(kind: Kind, version: UInt32 = plainVersion) -> [UInt8] {
        var out = BinaryWriter(capacity: headerSize)
        for byte in magic { out.u8(byte) }
        out.u32(version)
        out.u32(kind.rawValue)
        out.u64(0)
        out.u64(0)
        return out.bytes
    }

    /// A journal's record: its body's length (u32) and checksum (u64), then the body.
    package static func journalRecord(_ body: [UInt8]) -> [UInt8] {
        var record = BinaryWriter(capacity: body.count + 12)
        record.u32(UInt32(body.count))
        record.u64(body.withUnsafeBytes { ContentHash.of($0) })
        return record.bytes + body
    }

    /// The whole records of a journal's content (after its header), in order,
    /// each handed to `read` until it returns false; stops at the first torn or
    /// damaged one (a crash while appending). Returns how many bytes held the
    /// records read.
    package static func readJournalRecords(
        _ raw: UnsafeRawBufferPointer, path: String, _ read: (UnsafeRawBufferPointer) -> Bool
    ) -> Int {
        var reader = BinaryReader(raw, what: path)
        var good = 0
        while !reader.isAtEnd {
            guard let length = try? reader.u32(), let hash = try? reader.u64(), Int(length) <= reader.remaining else { break }
            let start = reader.position
            let body = UnsafeRawBufferPointer(rebasing: raw[start..<start + Int(length)])
            guard ContentHash.of(body) == hash, read(body) else { break }
            _ = try? reader.raw(count: Int(length))
            good = reader.position
        }
        return good
    }

    /// Checks a journal's header (magic, version, kind).
    package static func checkJournalHeader(_ bytes: [UInt8], kind: Kind, path: String) throws(FeatureCacheError) {
        // A journal's layout is format 1's in every version so far: appended
        // to as it is, its header keeps the version it was begun with.
        _ = try checkHead(bytes, kind: kind, path: path)
        guard bytes[16..<headerSize].allSatisfy({ $0 == 0 }) else { throw corrupt(path, "its header is not a journal's") }
    }

    /// The format version a file's header gives (the file at least a header long).
    package static func version<Bytes: Collection<UInt8>>(of bytes: Bytes) -> UInt32 where Bytes.Index == Int {
        (0..<4).reduce(0) { $0 | UInt32(bytes[bytes.startIndex + 8 + $1]) << (8 * UInt32($1)) }
    }

    /// Checks a framed file's header and checksum.
    package static func check(_ bytes: [UInt8], kind: Kind, path: String) throws(FeatureCacheError) {
        let checked = bytes.withUnsafeBytes { raw in Result { () throws(FeatureCacheError) in try check(raw, kind: kind, path: path) } }
        try checked.get()
    }

    /// Checks a framed file's header and checksum, in place.
    package static func check(_ raw: UnsafeRawBufferPointer, kind: Kind, path: String) throws(FeatureCacheError) {
        _ = try checkHeader(raw, kind: kind, path: path)
        do {
            var header = BinaryReader(UnsafeRawBufferPointer(rebasing: raw[16..<headerSize]), what: path)
            let length = try header.u64()
            guard length == UInt64(raw.count - headerSize) else {
                throw corrupt(path, "its header gives \(length) bytes of content; it holds \(raw.count - headerSize)")
            }
            let hash = try header.u64()
            guard hash == ContentHash.of(UnsafeRawBufferPointer(rebasing: raw[headerSize...])) else {
                throw corrupt(path, "its checksum does not match its content")
            }
        }
    }

    // MARK: - Appending (the edit journal)

    /// A file written record by record; each `append` reaches the operating
    /// system at once (it survives the process being killed), `sync` reaches
    /// the disk (it survives the machine losing power).
    package final class AppendFile: @unchecked Sendable {
        private let descriptor: Int32
        package let path: String
        package private(set) var size: Int

        /// `truncating`: a file begun anew (a temporary one), not appended to.
        package init(_ path: String, truncating: Bool = false) throws(FeatureCacheError) {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0), 0o644)
            guard descriptor >= 0 else { throw failure("cannot open \(path) to append") }
            var info = stat()
            size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
            self.path = path
        }

        package func append(_ bytes: [UInt8]) throws(FeatureCacheError) {
            do throws(FeatureCacheError) {
                try writeAll(descriptor, bytes, path: path)
            } catch {
                // A short write leaves a torn record: cut it off, so later records stay readable.
                _ = ftruncate(descriptor, off_t(size))
                throw error
            }
            size += bytes.count
        }

        package func sync() throws(FeatureCacheError) {
            guard fdatasync(descriptor) == 0 else { throw failure("cannot flush \(path)") }
        }

        deinit { close(descriptor) }
    }

    // MARK: - Folders, locks, setting aside

    /// Creates a folder and its parents (mode 0700: a cache may hold what the
    /// caller's credentials let it read).
    package static func makeFolder(_ path: String) throws(FeatureCacheError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw failure("cannot create the folder \(current)") }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FeatureCacheError(.storage, "\(path) is not a folder")
        }
    }

    /// An exclusive lock on a file, held until released or the process ends
    /// (the kernel drops it: no stale lock after a crash).
    package final class Lock: @unchecked Sendable {
        private let descriptor: Int32

        /// nil when another process (or another table of this one) holds it
        /// for longer than `patience` seconds (a table being released lets go
        /// within moments).
        /// `stamp`: write this process's id into the file (which also dates
        /// the folder's last use); an evictor's lock leaves it as it was.
        package init?(_ path: String, patience: Double = 2, stamp: Bool = true) throws(FeatureCacheError) {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw errno == ENOENT ? Lock.removed(path) : failure("cannot open the lock \(path)") }
            var waited = 0.0
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    let error = failure("cannot lock \(path)")
                    close(descriptor)
                    throw error
                }
                guard waited < patience else {
                    close(descriptor)
                    return nil
                }
                usleep(20_000)
                waited += 0.02
            }
            // Held, but is it still the folder's? An evictor removes a folder
            // while holding its lock: what was waited on is then gone.
            var held = stat(), named = stat()
            guard fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev
            else {
                close(descriptor)
                throw Lock.removed(path)
            }
            self.descriptor = descriptor
            guard stamp else { return }
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }

        private static func removed(_ path: String) -> FeatureCacheError {
            FeatureCacheError(.storage, "the lock \(path) was removed while it was waited for")
        }

        /// A folder (created if need be) and its `lock`, taken again if an
        /// evictor removed the folder while this waited for it; nil when
        /// another holder kept it past `patience`.
        package static func folder(_ folder: String, patience: Double = 2) throws(FeatureCacheError) -> Lock? {
            var attempt = 0
            while true {
                attempt += 1
                try makeFolder(folder)
                do throws(FeatureCacheError) {
                    return try Lock(folder + "/lock", patience: patience)
                } catch  where attempt < 3 && error == removed(folder + "/lock") {
                    continue
                }
            }
        }

        deinit { close(descriptor) }
    }

    /// The process id written in a lock file (who holds it), if readable.
    package static func lockHolder(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 16) }
        guard got > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<got], as: UTF8.self).trimmingNewline)
    }

    /// Moves a file that cannot be read out of the way (kept beside, for a
    /// look); returns where it went.
    @discardableResult
    package static func setAside(_ path: String) -> String? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let target = "\(path).corrupt-\(now.tv_sec)"
        return rename(path, target) == 0 ? target : nil
    }

    package static func remove(_ path: String) { unlink(path) }

    /// The tables' folders under `root` (named by a hash, holding a `lock`:
    /// anything else a caller keeps there is not the cache's): each one's bytes
    /// on disk (the cache's files in it) and its last use (its lock's or its
    /// features' last change, seconds since 1970).
    package static func folders(in root: String) -> [(path: String, bytes: Int, lastUse: Double)] {
        var found: [(path: String, bytes: Int, lastUse: Double)] = []
        for name in entries(of: root) where (1...16).contains(name.utf8.count) && name.utf8.allSatisfy(isLowerHex) {
            let path = join(root, name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, lstat(path + "/lock", &info) == 0 else { continue }
            var bytes = 0, lastUse = 0.0
            for file in entries(of: path) where isCacheFile(file) {
                var fileInfo = stat()
                guard lstat(path + "/" + file, &fileInfo) == 0, fileInfo.st_mode & S_IFMT == S_IFREG else { continue }
                bytes += Int(fileInfo.st_size)
                if file == "lock" || file == "features.fcc" {
                    lastUse = max(lastUse, Double(fileInfo.st_mtim.tv_sec) + Double(fileInfo.st_mtim.tv_nsec) / 1e9)
                }
            }
            found.append((path, bytes, lastUse))
        }
        return found
    }

    /// Removes a table's folder: the cache's files in it, then the folder if
    /// nothing else is left (the caller holds its lock; a table waiting for
    /// that lock then finds it removed and starts a new folder, `Lock.folder`).
    package static func removeFolder(_ path: String) {
        for file in entries(of: path) where isCacheFile(file) { unlink(path + "/" + file) }
        rmdir(path)
    }

    /// A name the cache gives its files: the lock, the features, the journal,
    /// a source's kept answer, a resumable populate's pages, their temporary
    /// and set-aside copies.
    private static func isCacheFile(_ name: String) -> Bool {
        ["lock", "features.fcc", "edits.fcj", "answer.fcc", "populate.fcj"].contains(name)
            || ["features.fcc.", "edits.fcj.", "answer.fcc.", "populate.fcj.", SegmentFile.prefix].contains { name.hasPrefix($0) }
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }

    /// Whether a file whose name starts with `prefix` is in the folder.
    package static func hasFile(in folder: String, prefix: String) -> Bool {
        entries(of: folder).contains { $0.hasPrefix(prefix) }
    }

    /// `name` in `folder` (which may end in a slash).
    package static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The names in a folder, without `.` and `..`; none when it cannot be read.
    package static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Bytes on disk of a file; 0 when absent.
    package static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Seconds since the epoch, now.
    package static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: - Helpers

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(FeatureCacheError) {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw failure("cannot write \(path)") }
            done += wrote
        }
    }

    private static func syncFolder(of path: String) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ what: String) -> FeatureCacheError {
        let code = errno
        let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return FeatureCacheError(.storage, "\(what): \(reason)")
    }

    package static func corrupt(_ path: String, _ detail: String) -> FeatureCacheError {
        FeatureCacheError(.storage, "\(path) is corrupt: \(detail)")
    }
}

extension String {
    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
