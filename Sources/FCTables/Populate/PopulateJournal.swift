// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData

/// The pages a resumable populate took, appended to the table's cache folder
/// (`populate.fcj`) as the pager takes them, so that a populate cut short —
/// cancelled, failed, the process killed — is resumed by the next resumable
/// populate of the same query: the pages it took are read back from disk,
/// not asked again, and paging goes on from there.
///
/// Replaying is sound only while the service's data is what it was (an
/// offset, a batch of ids or a next link then names the same features), so a
/// journal is bound to the table's data version — layer-wide evidence the
/// service gives (an ArcGIS layer's last edit date, a document's content
/// hash) — and to the query's signature: another version or another query
/// starts the journal over. A table without that evidence keeps none.
///
/// Records (FILE-FORMAT.md, CacheFiles' journal framing): 1 begins it (the
/// signature, the data version); 2 is a page (its key's hash, then from an
/// 8-byte boundary of the record the page);
/// 3 says the populate completed (whether max features cut it), and the file
/// is then rewritten as 1 and 3 alone. Keys are hashed: a key may be a URL,
/// and a URL may carry a credential.
package final class PopulateJournal: Sendable {
    /// The journal of the populate running in this task (its pager's prefetcher reads it).
    @TaskLocal package static var current: PopulateJournal?

    package let path: String
    package let signature: String
    package let dataVersion: String

    /// A completed populate, as its journal says it.
    package struct Completed: Equatable, Sendable {
        package var limitExceeded: Bool
    }

    private struct State {
        /// The journal as it was read: its page records are replayed from it.
        var saved: [UInt8] = []
        /// Each saved page's key hash, and where its page lies in `saved`.
        var pages: [UInt64: Range<Int>] = [:]
        var file: CacheFiles.AppendFile?
    }
    private let state: Locked<State>
    /// What a completed journal said (nil: it was cut short, or new).
    package let completed: Completed?

    private static let beginRecord: UInt8 = 1
    private static let pageRecord: UInt8 = 2
    private static let completeRecord: UInt8 = 3

    /// Opens the journal at `path` for a populate of `signature` on data of
    /// `dataVersion`: what a journal of the same two holds is kept (and a torn
    /// last record cut off); anything else there (all of it when `fresh`) is
    /// replaced by a new journal. Throws `.storage` when the file cannot be written.
    package init(path: String, signature: String, dataVersion: String, fresh: Bool = false) throws(FeatureCacheError) {
        self.path = path
        self.signature = signature
        self.dataVersion = dataVersion
        var kept = State()
        var completed: Completed?
        if !fresh, let bytes = try? CacheFiles.readRaw(path),
            (try? CacheFiles.checkJournalHeader(bytes, kind: .populate, path: path)) != nil
        {
            let read = Self.read(bytes, path: path, signature: signature, dataVersion: dataVersion)
            if let read {
                kept.saved = bytes
                kept.pages = read.pages
                completed = read.completed
                // A torn record at the end: cut off before appending after it.
                if read.good < bytes.count { try CacheFiles.replace(path, with: Array(bytes[0..<read.good])) }
            }
        }
        if kept.saved.isEmpty {
            try CacheFiles.replace(path, with: CacheFiles.journalHeader(kind: .populate) + Self.begin(signature, dataVersion))
        }
        if completed == nil { kept.file = try CacheFiles.AppendFile(path) }
        self.completed = completed
        state = Locked(kept)
    }

    /// The pages of a journal of `signature` and `dataVersion` (nil: of any),
    /// and how many bytes held whole records; nil for another journal, or not
    /// a journal.
    private static func read(
        _ bytes: [UInt8], path: String, signature: String?, dataVersion: String?
    ) -> (pages: [UInt64: Range<Int>], completed: Completed?, good: Int)? {
        var pages: [UInt64: Range<Int>] = [:]
        var completed: Completed?
        var begun = false
        var mismatch = false
        let good = bytes.withUnsafeBytes { raw in
            let content = UnsafeRawBufferPointer(rebasing: raw[CacheFiles.headerSize...])
            return CacheFiles.readJournalRecords(content, path: path) { body in
                var record = BinaryReader(body, what: path)
                do {
                    switch try record.u8() {
                    case beginRecord where !begun:
                        begun = true
                        let (kept, version) = (try record.string(), try record.string())
                        mismatch = signature.map { $0 != kept } ?? false || dataVersion.map { $0 != version } ?? false
                        return !mismatch
                    case pageRecord where begun && completed == nil:
                        let key = try record.u64()
                        try record.align()  // the page's buffers align as they were written
                        // Where the page lies in the whole file.
                        let start = body.baseAddress! - raw.baseAddress! + record.position
                        pages[key] = start..<start + record.remaining
                        return true
                    case completeRecord where begun:
                        completed = Completed(limitExceeded: try record.bool())
                        return true
                    default:
                        return false
                    }
                } catch {
                    return false
                }
            } + CacheFiles.headerSize
        }
        guard begun, !mismatch else { return nil }
        return (pages, completed, good)
    }

    /// Every page a journal's content (after its header) holds, decoded as
    /// `Page`, whatever its signature (the fuzz target reads any bytes this way).
    package static func pages<Page: JournaledPage>(in content: [UInt8], as _: Page.Type) -> [Page] {
        let bytes = CacheFiles.journalHeader(kind: .populate) + content
        guard let read = read(bytes, path: "journal", signature: nil, dataVersion: nil) else { return [] }
        return bytes.withUnsafeBytes { raw in
            read.pages.values.compactMap { range in
                var input = BinaryReader(UnsafeRawBufferPointer(rebasing: raw[range]), what: "journal")
                return try? Page.read(from: &input)
            }
        }
    }

    private static func begin(_ signature: String, _ dataVersion: String) -> [UInt8] {
        var body = BinaryWriter()
        body.u8(beginRecord)
        body.string(signature)
        body.string(dataVersion)
        return CacheFiles.journalRecord(body.bytes)
    }

    /// The hash a key is kept under.
    private static func hash(_ key: some Hashable & Sendable) -> UInt64 {
        ContentHash.of(String(describing: key))
    }

    /// Whether the page of `key` is in the journal (then it is not fetched).
    package func holds(_ key: some Hashable & Sendable) -> Bool {
        let hash = Self.hash(key)
        return state.withLock { $0.pages[hash] != nil }
    }

    /// The page of `key` as the journal holds it; nil when it holds none, or
    /// one this build cannot read (then the page is fetched again).
    package func replayed<Page: JournaledPage>(_ key: some Hashable & Sendable, as _: Page.Type) -> Page? {
        let hash = Self.hash(key)
        return state.withLock { state -> Page? in
            guard let range = state.pages[hash] else { return nil }
            let page = state.saved.withUnsafeBytes { raw -> Page? in
                var input = BinaryReader(UnsafeRawBufferPointer(rebasing: raw[range]), what: path)
                guard let page = try? Page.read(from: &input), input.isAtEnd else { return nil }
                return page
            }
            if page == nil { state.pages[hash] = nil }
            return page
        }
    }

    /// Appends a page the pager took. A journal that cannot be written stops
    /// recording (the populate goes on; only its resumption is lost).
    package func record(_ key: some Hashable & Sendable, _ page: some JournaledPage) {
        var body = BinaryWriter()
        body.u8(Self.pageRecord)
        body.u64(Self.hash(key))
        body.align()
        page.write(to: &body)
        let record = CacheFiles.journalRecord(body.bytes)
        state.withLock { state in
            guard let file = state.file else { return }
            do throws(FeatureCacheError) {
                try file.append(record)
            } catch {
                state.file = nil
            }
        }
    }

    /// The populate completed and its features are saved: the pages go, and
    /// the journal says it completed (what a later populate of the same query
    /// on the same data is answered from the cache by).
    package func complete(limitExceeded: Bool) {
        var body = BinaryWriter()
        body.u8(Self.completeRecord)
        body.bool(limitExceeded)
        let bytes = CacheFiles.journalHeader(kind: .populate) + Self.begin(signature, dataVersion) + CacheFiles.journalRecord(body.bytes)
        state.withLock { state in
            state.file = nil
            state.saved = []
            state.pages = [:]
        }
        do throws(FeatureCacheError) {
            try CacheFiles.replace(path, with: bytes)
        } catch {
            CacheFiles.remove(path)
        }
    }
}

extension PopulateJournal {
    /// Runs `work` (a populate's fetch) with `journal` as its pagers' journal.
    package static func keeping<R>(
        _ journal: PopulateJournal?, _ work: () async throws(FeatureCacheError) -> R
    ) async throws(FeatureCacheError) -> R {
        guard let journal else { return try await work() }
        let outcome = await $current.withValue(journal) { () async -> Result<R, FeatureCacheError> in
            do throws(FeatureCacheError) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
