// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// A table's pending edits on disk, as a journal: every change of the edit log
/// appended as it is made (`EditRecorder`), so a change the caller was told
/// succeeded survives the process being killed the next instant. A record is
/// its length (u32), its checksum (u64) and its body: a kind (1: the edit as it
/// now is, 2: the edit is gone), the log's counters, then the edit or its id.
/// Reading replays records up to the first torn or damaged one (a crash while
/// appending) and cuts the file there. The journal is rewritten whole (atomically)
/// when it holds many more records than edits.
package final class EditJournal: EditRecorder, @unchecked Sendable {
    package let path: String
    // Only touched under the edit log's lock (EditRecorder's contract) or before attaching.
    private var file: CacheFiles.AppendFile
    private var records = 0
    private var liveEdits: Set<Int64> = []

    /// What a journal held: the edits and the log's counters.
    package struct Contents {
        package var edits: [LocalEdit] = []
        package var nextLocalId: Int64 = -1
        package var nextSequence = 0
    }

    /// Opens (creating) the journal at `path` and replays it. A journal whose
    /// header is not this format's throws `.storage` (the caller sets it aside).
    package static func open(_ path: String) throws(FeatureCacheError) -> (EditJournal, Contents) {
        var contents = Contents()
        var records = 0
        if let bytes = try CacheFiles.readRaw(path), !bytes.isEmpty {
            try CacheFiles.checkJournalHeader(bytes, kind: .edits, path: path)
            var edits: [Int64: LocalEdit] = [:]
            let good = bytes.withUnsafeBytes { raw in
                replay(UnsafeRawBufferPointer(rebasing: raw[CacheFiles.headerSize...]), path: path, into: &edits, &contents, &records)
            }
            contents.edits = edits.values.sorted { $0.sequence < $1.sequence }
            if good < bytes.count - CacheFiles.headerSize {
                // A torn record at the end: rewrite without it before appending after it.
                try CacheFiles.replace(path, with: Array(bytes[0..<CacheFiles.headerSize + good]))
            }
        } else {
            try CacheFiles.replace(path, with: CacheFiles.journalHeader(kind: .edits))
        }
        let journal = EditJournal(path: path, file: try CacheFiles.AppendFile(path))
        journal.records = records
        journal.liveEdits = Set(contents.edits.map(\.objectId))
        if records > 2 * contents.edits.count + 64 { try journal.compact(contents) }
        return (journal, contents)
    }

    /// The edits of a journal another table writes (read-only: nothing is cut or created).
    package static func read(_ path: String) throws(FeatureCacheError) -> Contents {
        var contents = Contents()
        guard let bytes = try CacheFiles.readRaw(path), !bytes.isEmpty else { return contents }
        try CacheFiles.checkJournalHeader(bytes, kind: .edits, path: path)
        var edits: [Int64: LocalEdit] = [:]
        var records = 0
        _ = bytes.withUnsafeBytes { raw in
            replay(UnsafeRawBufferPointer(rebasing: raw[CacheFiles.headerSize...]), path: path, into: &edits, &contents, &records)
        }
        contents.edits = edits.values.sorted { $0.sequence < $1.sequence }
        return contents
    }

    private init(path: String, file: CacheFiles.AppendFile) {
        self.path = path
        self.file = file
    }

    /// The edits records hold (the fuzz target reads any bytes this way).
    package static func replayed(_ raw: UnsafeRawBufferPointer, path: String) -> Contents {
        var contents = Contents()
        var edits: [Int64: LocalEdit] = [:]
        var records = 0
        _ = replay(raw, path: path, into: &edits, &contents, &records)
        contents.edits = edits.values.sorted { $0.sequence < $1.sequence }
        return contents
    }

    /// Replays records; returns how many bytes held whole records.
    private static func replay(
        _ raw: UnsafeRawBufferPointer, path: String, into edits: inout [Int64: LocalEdit], _ contents: inout Contents, _ records: inout Int
    ) -> Int {
        CacheFiles.readJournalRecords(raw, path: path) { body in
            var record = BinaryReader(body, what: path)
            do {
                let kind = try record.u8()
                contents.nextLocalId = try record.i64()
                contents.nextSequence = try record.int()
                switch kind {
                case 1:
                    let edit = try LocalEdit.read(from: &record)
                    edits[edit.objectId] = edit
                case 2: edits[try record.i64()] = nil
                default: throw record.corrupt("record kind \(kind)")
                }
            } catch {
                return false  // a record this build cannot read ends the replay like a torn one
            }
            records += 1
            return true
        }
    }

    // MARK: - EditRecorder

    package func record(_ edit: LocalEdit, counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError) {
        try file.append(Self.editRecord(edit, counters: counters))
        records += 1
        liveEdits.insert(edit.objectId)
    }

    package func recordRemoval(_ id: Int64, counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError) {
        var body = BinaryWriter()
        body.u8(2)
        body.i64(counters.nextLocalId)
        body.int(counters.nextSequence)
        body.i64(id)
        try file.append(CacheFiles.journalRecord(body.bytes))
        records += 1
        liveEdits.remove(id)
    }

    package func sync() throws(FeatureCacheError) { try file.sync() }

    /// The record of an edit as it now is.
    private static func editRecord(_ edit: LocalEdit, counters: (nextLocalId: Int64, nextSequence: Int)) -> [UInt8] {
        var body = BinaryWriter()
        body.u8(1)
        body.i64(counters.nextLocalId)
        body.int(counters.nextSequence)
        edit.write(to: &body)
        return CacheFiles.journalRecord(body.bytes)
    }

    /// Rewrites the journal as one record per edit (atomically: a crash keeps the old one).
    private func compact(_ contents: Contents) throws(FeatureCacheError) {
        var bytes = CacheFiles.journalHeader(kind: .edits)
        for edit in contents.edits {
            bytes += Self.editRecord(edit, counters: (contents.nextLocalId, contents.nextSequence))
        }
        try CacheFiles.replace(path, with: bytes)
        file = try CacheFiles.AppendFile(path)
        records = contents.edits.count
    }

    /// Whether the journal holds many more records than edits (worth `compact`).
    package var wantsCompaction: Bool { records > 2 * liveEdits.count + 1024 }

    /// Compacts from the log's edits as they are (called under the log's lock by its owner).
    package func compact(_ edits: [LocalEdit], counters: (nextLocalId: Int64, nextSequence: Int)) throws(FeatureCacheError) {
        try compact(Contents(edits: edits, nextLocalId: counters.nextLocalId, nextSequence: counters.nextSequence))
    }
}
