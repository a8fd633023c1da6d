// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FCSupport
import FCData
import FCTransport

/// One table's cache on disk: a folder holding `features.fcc` (the cached
/// features, their coverage and the metadata, rewritten whole and atomically
/// after changes), `edits.fcj` (the pending edits' journal, appended as each
/// is made) and `lock` (held while a table uses the folder: a second table of
/// the same identity, in this process or another, opens it read-only).
/// FILE-FORMAT.md describes the files.
package final class PersistedCache: @unchecked Sendable {
    /// The cache folder this table's folder is in (shared with other tables).
    package let root: String
    package let folder: String
    /// What the folder is for (kind, redacted URL and item, CRS, filter).
    package let identity: String
    /// Another table holds the lock: this one reads, never writes.
    package let isReadOnly: Bool
    private let lock: CacheFiles.Lock?

    package var featuresPath: String { folder + "/features.fcc" }
    package var journalPath: String { folder + "/edits.fcj" }
    /// A resumable populate's pages (`PopulateJournal`).
    package var populatePath: String { folder + "/populate.fcj" }

    /// What `features.fcc` holds.
    package struct Snapshot {
        package var identity: String
        /// How the table is opened again (`FeatureSource.reopening`), its URL's
        /// credentials masked (`***`); nil in format 1. Format 2 on.
        package var reopening: (url: String, name: String?)? = nil
        package var savedAt: Double
        /// Until when (epoch milliseconds) the server said every answer behind
        /// the features stays fresh (`AnswerFreshness`); nil: it did not say.
        package var freshUntil: Int64?
        package var metadata: TableMetadata
        package var coverage: TileCoverage
        /// The batches (in memory, or in the folder's segment files) and
        /// the liveness of their rows (nil: all current).
        package var entries: [(slot: BatchSlot, live: Bitmap?)]
        /// The ids of pending edits when it was saved (their rows are in `entries`).
        package var editIds: [Int64]
        /// The service's generation the features are current to, when it
        /// tracks changes (a synchronize asks what changed since); nil when
        /// unknown. Format 2 on.
        package var syncGeneration: String? = nil
        /// The validators of the pages of the last whole-table populate (a
        /// synchronize without change tracking asks them again); nil when
        /// some page had none or there was none. Format 2 on.
        package var populateValidators: [AnswerValidator]? = nil
        /// That populate's query; nil for the whole table. Format 2 on.
        package var populateQuery: QueryParameters? = nil
        /// The data version that populate's features were fetched at. Format 2 on.
        package var featuresVersion: String? = nil
        /// Features in segment files that could not be opened (read: left
        /// out), and why. Format 3 on.
        package var lostFeatures = 0
        package var lostReason: String? = nil

        /// Features alone, with no coverage or edits (a benchmark's, a tool's).
        package init(identity: String, metadata: TableMetadata, entries: [(slot: BatchSlot, live: Bitmap?)]) {
            self.init(
                identity: identity, savedAt: CacheFiles.now(), metadata: metadata, coverage: TileCoverage(), entries: entries, editIds: [])
        }

        init(
            identity: String, reopening: (url: String, name: String?)? = nil, savedAt: Double, freshUntil: Int64? = nil,
            metadata: TableMetadata, coverage: TileCoverage, entries: [(slot: BatchSlot, live: Bitmap?)], editIds: [Int64],
            syncGeneration: String? = nil, populateValidators: [AnswerValidator]? = nil, populateQuery: QueryParameters? = nil,
            featuresVersion: String? = nil
        ) {
            self.identity = identity
            self.reopening = reopening
            self.savedAt = savedAt
            self.freshUntil = freshUntil
            self.metadata = metadata
            self.coverage = coverage
            self.entries = entries
            self.editIds = editIds
            self.syncGeneration = syncGeneration
            self.populateValidators = populateValidators
            self.populateQuery = populateQuery
            self.featuresVersion = featuresVersion
        }
    }

    /// Opens (creating) the folder of `identity` under `root`, waiting up to
    /// `lockWait` seconds for a table that holds it.
    package init(root: String, identity: String, lockWait: Double = 2) throws(FeatureCacheError) {
        self.root = root
        folder = Self.folder(root: root, identity: identity)
        self.identity = identity
        lock = try CacheFiles.Lock.folder(folder, patience: lockWait)
        isReadOnly = lock == nil
    }

    /// The folder of `identity` under `root`: named by the identity's hash.
    package static func folder(root: String, identity: String) -> String {
        let name = String(ContentHash.of(identity), radix: 16)
        return CacheFiles.join(root, name)
    }

    // MARK: - Features

    /// The saved features, or nil when there are none. A file that cannot be
    /// read (corrupt, of a newer format, of another table) is set aside and
    /// its reason returned.
    package func readSnapshot() -> (snapshot: Snapshot?, setAside: String?) {
        do throws(FeatureCacheError) {
            guard let file = try CacheFiles.readWhole(featuresPath) else { return (nil, nil) }
            // The batches' buffers stay where the file was read to, and the
            // columns borrow them: the image lives as long as one of its batches.
            let image = file.bytes.isEmpty ? nil : FrozenBytes(borrowing: file.bytes, from: file)
            // The checksum and the decoding side by side (the decoder checks
            // every length and offset itself, so it is safe on bytes the
            // checksum then refuses): a million points reopen ~20 ms sooner.
            let path = featuresPath
            let outcomes = Locked<(checked: Result<Void, FeatureCacheError>?, decoded: Result<Snapshot, FeatureCacheError>?)>((nil, nil))
            do {
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    let whole = file.bytes
                    if part == 0 {
                        let checked = Result { () throws(FeatureCacheError) in try CacheFiles.check(whole, kind: .features, path: path) }
                        outcomes.withLock { $0.checked = checked }
                    } else {
                        let decoded = Result { () throws(FeatureCacheError) in
                            guard whole.count >= CacheFiles.headerSize else {
                                throw CacheFiles.corrupt(path, "it is shorter than its header")
                            }
                            return try Self.decode(
                                UnsafeRawBufferPointer(rebasing: whole[CacheFiles.headerSize...]), version: CacheFiles.version(of: whole),
                                path: path, within: image, segmentFolder: folder)
                        }
                        outcomes.withLock { $0.decoded = decoded }
                    }
                }
            }
            let (checked, decoded) = outcomes.withLock { ($0.checked, $0.decoded) }
            try checked?.get()
            guard let snapshot = try decoded?.get() else { return (nil, nil) }
            guard snapshot.identity == identity else {
                throw CacheFiles.corrupt(featuresPath, "it is the cache of another table (\(snapshot.identity))")
            }
            return (snapshot, nil)
        } catch {
            if !isReadOnly { CacheFiles.setAside(featuresPath) }
            return (nil, error.message)
        }
    }

    /// The format version a snapshot needs: 3 when a batch is in a segment
    /// file, else 2, which earlier builds read.
    package static func version(of snapshot: Snapshot) -> UInt32 {
        snapshot.entries.contains { $0.slot.segment != nil } ? CacheFiles.formatVersion : CacheFiles.plainVersion
    }

    /// The snapshot's bytes, in `version(of:)`.
    package static func encode(_ snapshot: Snapshot) -> [UInt8] {
        let version = version(of: snapshot)
        let rows = snapshot.entries.reduce(0) { $0 + ($1.slot.segment == nil ? $1.slot.batchBytes : 64) }
        var out = BinaryWriter(capacity: rows + 4096)
        out.string(snapshot.identity)
        out.string(snapshot.reopening.map { RequestURL.masked($0.url) } ?? "")
        out.optionalString(snapshot.reopening?.name)
        out.f64(snapshot.savedAt)
        out.optionalI64(snapshot.freshUntil)
        out.bool(snapshot.syncGeneration != nil)
        if let generation = snapshot.syncGeneration { out.string(generation) }
        AnswerValidator.write(snapshot.populateValidators, to: &out)
        out.bool(snapshot.populateQuery != nil)
        if let query = snapshot.populateQuery { QueryCodec.write(query, to: &out) }
        out.optionalString(snapshot.featuresVersion)
        MetadataCodec.write(snapshot.metadata, to: &out)
        snapshot.coverage.write(to: &out)
        out.buffer(snapshot.editIds)
        out.u32(UInt32(snapshot.entries.count))
        for (slot, live) in snapshot.entries {
            // Each batch a record of its own, so that reading can find them all
            // first and decode them side by side.
            let record = out.beginRecord()
            if version >= 3 { out.u8(slot.segment == nil ? 0 : 1) }
            if let segment = slot.segment {
                // Named, not held: the batch stays in its segment file.
                out.string(segment.file.name)
                out.int(segment.location.offset)
                out.int(segment.location.length)
                out.u64(segment.location.checksum)
                out.int(slot.count)
                out.f64(slot.geometryTolerance)
                for value in [slot.box.xmin, slot.box.ymin, slot.box.xmax, slot.box.ymax] { out.f64(value) }
                out.int(slot.batchBytes)
            } else if let batch = try? slot.batch(nil) {
                BatchCodec.write(batch, to: &out)
            }
            out.bool(live != nil)
            if let live { out.buffer(live.words) }
            out.endRecord(record)
        }
        return out.bytes
    }

    /// The snapshot in `raw`, as format `version` wrote it; its batches borrow
    /// their buffers from `owner` (which holds `raw`) when given, else copy them.
    /// Segment files are opened in `segmentFolder` (none: a batch in one is
    /// left out as lost).
    package static func decode(
        _ raw: UnsafeRawBufferPointer, version: UInt32 = CacheFiles.plainVersion, path: String, within owner: FrozenBytes? = nil,
        segmentFolder: String? = nil
    ) throws(FeatureCacheError) -> Snapshot {
        var input = BinaryReader(raw, what: path, within: owner)
        let identity = try input.string()
        let reopening = version >= 2 ? try readReopening(&input) : nil
        let savedAt = try input.f64()
        let freshUntil = try input.optionalI64()
        var syncGeneration: String? = nil
        var populateValidators: [AnswerValidator]? = nil
        var populateQuery: QueryParameters? = nil
        var featuresVersion: String? = nil
        if version >= 2 {
            if try input.bool() { syncGeneration = try input.string() }
            populateValidators = try AnswerValidator.read(from: &input, limit: FreshnessCollector.maxPopulateValidators)
            if try input.bool() { populateQuery = try QueryCodec.read(from: &input) }
            featuresVersion = try input.optionalString()
        }
        // The identity starts with the service kind's raw value ("1|https://…").
        let kind = identity.split(separator: "|", maxSplits: 1).first.flatMap { Int32($0) }
        let metadata = try MetadataCodec.readMetadata(&input, version: version, kind: kind)
        let coverage = try TileCoverage.read(from: &input, version: version)
        let editIds = try input.buffer(of: Int64.self)
        let count = Int(try input.u32())
        guard count <= input.remaining / 32 else { throw input.corrupt("\(count) batches cannot fit") }
        var records: [UnsafeRawBufferPointer] = []
        for _ in 0..<count { records.append(try input.raw()) }
        guard input.isAtEnd else { throw input.corrupt("\(input.remaining) bytes follow the last batch") }
        let decoded = try decodeBatches(records, reader: input, tagged: version >= 3)
        guard decoded.reduce(0, { $0 + $1.rows }) < Int(UInt32.max) else { throw input.corrupt("more than 4 billion rows") }
        var snapshot = Snapshot(
            identity: identity, reopening: reopening, savedAt: savedAt, freshUntil: freshUntil, metadata: metadata, coverage: coverage,
            entries: [], editIds: editIds, syncGeneration: syncGeneration, populateValidators: populateValidators,
            populateQuery: populateQuery, featuresVersion: featuresVersion)
        // Each segment file opened once; one that cannot be loses its batches, not the cache.
        var files: [String: Result<SegmentFile, FeatureCacheError>] = [:]
        for record in decoded {
            switch record {
            case .batch(let batch, let live): snapshot.entries.append((BatchSlot(batch), live))
            case .segment(let reference, let live):
                let file =
                    files[reference.name]
                    ?? Result { () throws(FeatureCacheError) in
                        guard let segmentFolder else { throw FeatureCacheError(.storage, "no folder holds \(reference.name)") }
                        return try SegmentFile.open(reference.name, in: segmentFolder)
                    }
                files[reference.name] = file
                switch file {
                case .success(let file):
                    let slot = BatchSlot(
                        segment: .init(file: file, location: reference.location), count: reference.count,
                        geometryTolerance: reference.tolerance, box: reference.box, batchBytes: reference.bytes)
                    snapshot.entries.append((slot, live))
                case .failure(let error):
                    snapshot.lostFeatures += live?.setCount ?? reference.count
                    snapshot.lostReason = error.message
                }
            }
        }
        return snapshot
    }

    /// A batch record: the batch itself, or where in a segment file it is.
    private enum BatchRecord {
        case batch(FeatureBatch, Bitmap?)
        case segment(SegmentReference, Bitmap?)

        var rows: Int {
            switch self {
            case .batch(let batch, _): batch.count
            case .segment(let reference, _): reference.count
            }
        }
    }

    private struct SegmentReference {
        let name: String
        let location: SegmentFile.Location
        let count: Int
        let tolerance: Double
        let box: BoundingBox
        let bytes: Int

        static func read(_ input: inout BinaryReader) throws(FeatureCacheError) -> SegmentReference {
            let name = try input.string()
            guard SegmentFile.isSegmentName(name) else { throw input.corrupt("\(name) is not a segment file's name") }
            let offset = try input.int(limit: Int(Int64.max)), length = try input.int(limit: CacheFiles.maxFileSize)
            let checksum = try input.u64()
            let count = try input.int(limit: Int(UInt32.max) - 1)
            let tolerance = try input.f64()
            let box = BoundingBox(try input.f64(), try input.f64(), try input.f64(), try input.f64())
            let bytes = try input.int(limit: Int(Int64.max))
            guard count > 0, tolerance.isFinite, tolerance >= 0 else { throw input.corrupt("a segment of \(count) rows") }
            return SegmentReference(
                name: name, location: .init(offset: offset, length: length, checksum: checksum), count: count, tolerance: tolerance,
                box: box, bytes: bytes)
        }
    }

    private static func readReopening(_ input: inout BinaryReader) throws(FeatureCacheError) -> (url: String, name: String?)? {
        let url = try input.string()
        let name = try input.optionalString()
        return url.isEmpty ? nil : (url, name)
    }

    /// What the features file in a table's `folder` says of the table it
    /// belongs to — its identity, and how it is opened again — read from the
    /// file's first bytes (not the features). `.notFound` without the file;
    /// `.storage` for one that is not a features file of a format this build
    /// reads, or (format 1) that does not say how it is opened.
    package static func recordedTable(in folder: String) throws(FeatureCacheError) -> (identity: String, url: String, name: String?) {
        let path = CacheFiles.join(folder, "features.fcc")
        guard let head = try CacheFiles.readHead(path, count: 64 << 10) else {
            throw FeatureCacheError(.notFound, "\(folder) holds no saved table (no features.fcc)")
        }
        let version = try CacheFiles.checkHead(head, kind: .features, path: path)
        guard version >= 2 else {
            throw FeatureCacheError(.storage, "\(path) was written in cache format 1, which does not say how its table is opened")
        }
        let read = head.withUnsafeBytes { raw in
            Result { () throws(FeatureCacheError) -> (identity: String, url: String, name: String?) in
                var input = BinaryReader(UnsafeRawBufferPointer(rebasing: raw[CacheFiles.headerSize...]), what: path)
                let identity = try input.string()
                guard let reopening = try readReopening(&input) else { throw input.corrupt("it does not say how its table is opened") }
                return (identity, reopening.url, reopening.name)
            }
        }
        return try read.get()
    }

    /// The batch records, decoded side by side (each is independent).
    private static func decodeBatches(
        _ records: [UnsafeRawBufferPointer], reader: BinaryReader, tagged: Bool
    ) throws(FeatureCacheError) -> [BatchRecord] {
        guard !records.isEmpty else { return [] }
        let shared = BorrowedRecords(records: records, reader: reader)
        let results = Locked([Result<BatchRecord, FeatureCacheError>?](repeating: nil, count: records.count))
        DispatchQueue.concurrentPerform(iterations: records.count) { index in
            let decoded = Result { () throws(FeatureCacheError) -> BatchRecord in
                var input = shared.reader.reader(of: shared.records[index])
                let tag = tagged ? try input.u8() : 0
                guard tag <= 1 else { throw input.corrupt("batch record kind \(tag)") }
                let batch = tag == 0 ? try BatchCodec.read(from: &input) : nil
                let reference = tag == 1 ? try SegmentReference.read(&input) : nil
                let rows = batch?.count ?? reference!.count
                var live: Bitmap?
                if try input.bool() {
                    guard let bits = Bitmap(words: try input.buffer(of: UInt64.self), count: rows) else {
                        throw input.corrupt("a liveness bitmap does not fit its batch")
                    }
                    live = bits
                }
                guard input.isAtEnd else { throw input.corrupt("a batch record holds more than its batch") }
                if let batch { return .batch(batch, live) }
                return .segment(reference!, live)
            }
            results.withLock { $0[index] = decoded }
        }
        var entries: [BatchRecord] = []
        for result in results.withLock({ $0 }) {
            guard let result else { continue }
            entries.append(try result.get())
        }
        return entries
    }

    /// Writes the features file, then removes the segment files it does not
    /// name (a kill between a segment file and the features file naming it
    /// leaves one; batches whose rows all went leave others).
    package func write(_ snapshot: Snapshot) throws(FeatureCacheError) {
        guard !isReadOnly else { return }
        try CacheFiles.writeAtomically(Self.encode(snapshot), kind: .features, version: Self.version(of: snapshot), to: featuresPath)
        SegmentFile.removeUnnamed(in: folder, keeping: Set(snapshot.entries.compactMap { $0.slot.segment?.file.name }))
    }

    // MARK: - Edits

    /// The journal (nil when read-only) and the edits it held. A journal that
    /// cannot be read is set aside (its reason returned): its edits are not
    /// guessed at.
    package func openJournal() -> (journal: EditJournal?, contents: EditJournal.Contents, setAside: String?) {
        if isReadOnly {
            do throws(FeatureCacheError) {
                return (nil, try EditJournal.read(journalPath), nil)
            } catch {
                return (nil, EditJournal.Contents(), error.message)
            }
        }
        do throws(FeatureCacheError) {
            let (journal, contents) = try EditJournal.open(journalPath)
            return (journal, contents, nil)
        } catch {
            CacheFiles.setAside(journalPath)
            let reason = error.message
            guard let (journal, contents) = try? EditJournal.open(journalPath) else { return (nil, EditJournal.Contents(), reason) }
            return (journal, contents, reason)
        }
    }

    /// Bytes the table's files take on disk.
    package var bytesOnDisk: Int {
        CacheFiles.size(featuresPath) + CacheFiles.size(journalPath) + CacheFiles.size(answerPath)
            + CacheFiles.size(populatePath) + SegmentFile.bytes(in: folder)
    }
}

/// Records lent to the threads of one `concurrentPerform`, which returns
/// before their owner lets them go.
private struct BorrowedRecords: @unchecked Sendable {
    let records: [UnsafeRawBufferPointer]
    let reader: BinaryReader
}
