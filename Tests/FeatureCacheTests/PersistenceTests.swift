// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The persisted cache's files: batches, metadata, coverage and edits read back
/// as they were written; the evidence of change read from recorded layers; and
/// files that lie (truncated, flipped, torn, of a later format) refused with
/// `.storage`, never read.
@Suite struct PersistenceTests {
    /// Recorded Z/M polygons and points with strings and NULLs, as the readers cache them.
    private func recordedBatches() throws -> [FeatureBatch] {
        try ["arcgis-zm/arcgis-rest-js-polygon-zm.json", "arcgis-zm/arcgis-rest-js-point-z.json"].map { path in
            try Fixtures.bytes(path).withUnsafeBytes { try EsriJSONReader.read($0, fields: [], objectIdField: nil) }.batch
        }
    }

    private func sameBatch(_ a: FeatureBatch, _ b: FeatureBatch) -> Bool {
        guard a.count == b.count, a.fields == b.fields, a.geometryTolerance == b.geometryTolerance else { return false }
        for row in 0..<a.count {
            guard a.objectId(row) == b.objectId(row), a.geometry.wkb(row).elementsEqual(b.geometry.wkb(row)) else { return false }
            for (x, y) in zip(a.columns, b.columns) where x.value(row) != y.value(row) { return false }
        }
        return true
    }

    private func snapshot() throws -> PersistedCache.Snapshot {
        var coverage = TileCoverage()
        coverage.cover(TileKey(level: 3, x: 2, y: 5), signature: "where=&outFields=*", ids: [1, 2, 3], tolerance: 0.5)
        _ = coverage.coverArea(BoundingBox(-1, -2, 3, 4), signature: "where=&outFields=*\u{1}a = 1", ids: [2])
        coverage.pin([7])
        var metadata = try ArcGISLayerInfo.parse(
            try JSONValue.parse(try Fixtures.bytes("arcgis-edits/terriajs-act-veg-map-FeatureServer-0-layer.json")), url: "x")
        metadata.dataVersion = "v1"
        var live = Bitmap(count: try recordedBatches()[0].count, value: true)
        live[0] = false
        let batches = try recordedBatches()
        return PersistedCache.Snapshot(
            identity: "1|https://example.com/0|wkid=0|where=", savedAt: 1_790_000_000.5, freshUntil: 1_790_000_600_000,
            metadata: metadata, coverage: coverage,
            entries: [(BatchSlot(batches[0]), live), (BatchSlot(batches[1]), nil)], editIds: [-1, 5])
    }

    /// Files FeatureCache 1.3.0 wrote in format 1 (Fixtures/cache-format-1):
    /// read whole, with the protocol fields that format gave their own places
    /// now the source facts each kind of table reports; their journals accepted.
    @Test(arguments: [
        (
            "arcgis",
            [
                "capabilities": "Query", "current_version": "11.1", "layer_type": "Feature Layer",
                "supported_query_formats": "JSON,geoJSON", "supports_pagination": "true",
            ]
        ),
        (
            "wfs",
            [
                "output_formats": "application/gml+xml; version=3.2,text/xml; subtype=gml/3.2.1,text/xml; subtype=gml/3.1.1,"
                    + "text/xml; subtype=gml/2.1.2,application/json; subtype=geojson,text/xml; subtype=gml/2.1.2; driver=ogr",
                "version": "2.0.0",
            ]
        ),
        ("ogc", ["item_type": "feature"]),
    ])
    func formatOneFilesAreRead(kind: String, facts: [String: String]) throws {
        let path = "cache-format-1/\(kind)/features.fcc"
        let bytes = try Fixtures.bytes(path)
        #expect(CacheFiles.version(of: bytes) == 1)
        try CacheFiles.check(bytes, kind: .features, path: path)
        let snapshot = try bytes.withUnsafeBytes { raw in
            try PersistedCache.decode(
                UnsafeRawBufferPointer(rebasing: raw[CacheFiles.headerSize...]), version: 1, path: path)
        }
        #expect(snapshot.metadata.sourceFacts == facts)
        #expect(snapshot.entries.reduce(0) { $0 + $1.slot.count } == 3)
        #expect(snapshot.metadata.editing.declared == (kind == "arcgis" ? "capabilities: Query" : ""))
        let journal = try Fixtures.bytes("cache-format-1/\(kind)/edits.fcj")
        try CacheFiles.checkJournalHeader(journal, kind: .edits, path: "edits.fcj")
        // What format 2 writes of it reads back the same.
        let again = PersistedCache.encode(snapshot)
        let reread = try again.withUnsafeBytes { raw in try PersistedCache.decode(raw, path: "again") }
        #expect(reread.metadata == snapshot.metadata)
    }

    @Test func snapshotRoundTrip() throws {
        let original = try snapshot()
        let bytes = PersistedCache.encode(original)
        let read = try bytes.withUnsafeBytes { raw in try PersistedCache.decode(raw, path: "t") }
        #expect(read.identity == original.identity && read.savedAt == original.savedAt && read.freshUntil == 1_790_000_600_000)
        #expect(read.metadata == original.metadata)
        #expect(read.editIds == [-1, 5])
        #expect(read.entries.count == 2)
        for (a, b) in zip(read.entries, original.entries) {
            #expect(try sameBatch(a.slot.batch(nil), b.slot.batch(nil)))
            #expect(a.live == b.live)
        }
        var coverage = read.coverage
        #expect(coverage.contains(TileKey(level: 3, x: 2, y: 5), signature: "where=&outFields=*"))
        let answered = coverage.coversAnswered(BoundingBox(0, 0, 1, 1), signature: "where=&outFields=*\u{1}a = 1")
        #expect(answered)
        #expect(coverage.heldIds == [1, 2, 3, 7])
        // Written again, the same bytes.
        #expect(PersistedCache.encode(read) == bytes)
    }

    /// The last populate's query, the data version its features were
    /// fetched at, and how the table is opened again: read
    /// back as written (every geometry shape), and the reopening from the
    /// file's first bytes alone.
    @Test func populateQueryAndReopeningRoundTrip() throws {
        var snapshot = try snapshot()
        snapshot.reopening = ("https://host/ogc?token=secret", "trees")
        snapshot.featuresVersion = "lastEditDate=1721608500483&dataLastEditDate=1721608500483"
        let ring = [Geometry.XY(0, 0), Geometry.XY(1, 0), Geometry.XY(1, 1), Geometry.XY(0, 0)]
        for shape: QueryGeometry in [
            .envelope(Envelope(xmin: -1, ymin: -2, xmax: 3, ymax: 4, spatialReference: SpatialReference(wkid: 3857))),
            .geometry(.multiPolygon([[ring], [ring, ring]]), wkid: 4326),
            .geometry(.collection([.point(x: 1, y: 2), .lineString(ring), .multiPoint(ring)]), wkid: 25832),
        ] {
            var query = QueryParameters()
            query.whereClause = "DBH > 20"
            query.geometry = shape
            query.spatialRelationship = .relation
            query.relationParameter = "T********"
            query.outFields = ["Species", "DBH"]
            query.maxFeatures = 10
            query.resultOffset = 3
            query.objectIds = [5, 7]
            query.orderBy = "DBH DESC"
            query.maxAllowableOffset = 0.5
            query.outWkid = 3857
            snapshot.populateQuery = query
            let bytes = PersistedCache.encode(snapshot)
            let read = try bytes.withUnsafeBytes { raw in try PersistedCache.decode(raw, path: "t") }
            #expect(read.populateQuery == query)
            #expect(read.featuresVersion == snapshot.featuresVersion)
            // Credentials never reach the file.
            #expect(read.reopening?.url == "https://host/ogc?token=***" && read.reopening?.name == "trees")
        }
        let folder = "/tmp/fc-reopening-\(getpid())"
        try CacheFiles.makeFolder(folder)
        defer { CacheFiles.removeFolder(folder) }
        try CacheFiles.writeAtomically(PersistedCache.encode(snapshot), kind: .features, to: folder + "/features.fcc")
        let recorded = try PersistedCache.recordedTable(in: folder)
        #expect(recorded.identity == snapshot.identity && recorded.url == "https://host/ogc?token=***" && recorded.name == "trees")
        #expect(FeatureTable.settings(ofCacheIdentity: "1|https://h/0|wkid=3857|where=a = 'x|y'")! == (3857, "a = 'x|y'"))
        #expect(FeatureTable.settings(ofCacheIdentity: "1|https://h/0") == nil)
    }

    /// Read as a table reads it (within the image of the file), a batch's
    /// buffers are the image's bytes, not copies; the batches keep the image
    /// alive after the reader let it go, and read the same as copies.
    @Test func reopenedColumnsBorrowTheFileImage() throws {
        let original = try snapshot()
        let bytes = PersistedCache.encode(original)
        var image: FrozenBytes? = FrozenBytes(bytes)
        let span = image!.base..<(image!.base + image!.count)
        let read = try PersistedCache.decode(image![0..<image!.count], path: "t", within: image)
        image = nil  // the batches alone keep it now
        for (a, b) in zip(read.entries, original.entries) {
            #expect(try sameBatch(a.slot.batch(nil), b.slot.batch(nil)))
            #expect(try span.contains(a.slot.batch(nil).geometry.bytes.base))
            for column in try a.slot.batch(nil).columns {
                column.integers.withUnsafeBufferPointer { if let base = $0.baseAddress { #expect(span.contains(UnsafeRawPointer(base))) } }
                column.doubles.withUnsafeBufferPointer { if let base = $0.baseAddress { #expect(span.contains(UnsafeRawPointer(base))) } }
                if let strings = column.bytes { #expect(span.contains(strings.base)) }
            }
        }
        // Without an image, every buffer is a copy of its own.
        let copied = try bytes.withUnsafeBytes { raw in try PersistedCache.decode(raw, path: "t") }
        bytes.withUnsafeBytes { raw in
            let file = raw.baseAddress!..<(raw.baseAddress! + raw.count)
            #expect(
                copied.entries.allSatisfy { entry in (try? entry.slot.batch(nil)).map { !file.contains($0.geometry.bytes.base) } ?? false })
        }
    }

    /// A reopened cache drops only the tiles and areas that aged: past their
    /// server's freshness and older than the time-to-live; the ages survive
    /// the file, and a dropped tile's features go unless another holds them.
    @Test func onlyAgedCoverageIsDropped() throws {
        let now: Int64 = 1_790_000_000_000, signature = "s"
        var coverage = TileCoverage()
        typealias Received = TileCoverage.Received
        coverage.cover(TileKey(level: 2, x: 0, y: 0), signature: signature, ids: [1, 2], received: Received(at: now - 10_000))
        coverage.cover(
            TileKey(level: 2, x: 1, y: 0), signature: signature, ids: [2, 3],
            received: Received(at: now - 10_000, freshUntil: now + 60_000))
        coverage.cover(TileKey(level: 2, x: 2, y: 0), signature: signature, ids: [4], received: Received(at: now - 1_000))
        _ = coverage.coverArea(
            BoundingBox(0, 0, 1, 1), signature: signature + "\u{1}a = 1", ids: [5], received: Received(at: now - 100_000))
        var read = try reread(coverage)
        let aging = read.dropExpired(now: now, timeToLive: 5)
        #expect(aging.fresh == 1 && aging.young == 1 && aging.dropped == 2)
        #expect(Set(aging.released) == [1, 5])
        #expect(!read.contains(TileKey(level: 2, x: 0, y: 0), signature: signature))
        #expect(read.contains(TileKey(level: 2, x: 1, y: 0), signature: signature))
        #expect(read.contains(TileKey(level: 2, x: 2, y: 0), signature: signature))
        #expect(read.heldIds == [2, 3, 4])
        // Past every freshness and time-to-live: nothing left.
        let later = read.dropExpired(now: now + 3_600_000, timeToLive: 5)
        #expect(later.dropped == 2 && later.fresh == 0 && read.isEmpty)
    }

    /// Every prefix of a file and a flipped byte anywhere: an error, never a crash or a wrong read.
    /// The coverage as a cache file holds it, read back.
    private func reread(_ coverage: TileCoverage) throws -> TileCoverage {
        var out = BinaryWriter(capacity: 256)
        coverage.write(to: &out)
        return try out.bytes.withUnsafeBytes { raw in
            var input = BinaryReader(raw, what: "t")
            return try TileCoverage.read(from: &input, version: CacheFiles.formatVersion)
        }
    }

    /// Tiles whose answers carried validators outlive their freshness stale:
    /// kept (their features held), covering nothing until a 304 renews them;
    /// the validators survive the file; a tile without them is dropped.
    @Test func tilesWithValidatorsAreKeptStaleUntilRenewed() throws {
        typealias Received = TileCoverage.Received
        let grid = TileGrid(extent: BoundingBox(0, 0, 1024, 1024), geographic: false)
        let signature = "where=&outFields=*", now: Int64 = 1_800_000_000_000
        let validators = [
            AnswerValidator(url: "https://h/items?bbox=0,0,1,1", etag: "\"a1\"", lastModified: nil, accept: "application/geo+json"),
            AnswerValidator(url: "https://h/items?page=2", etag: nil, lastModified: "Sat, 28 Nov 2026 10:00:00 GMT", accept: nil),
        ]
        var coverage = TileCoverage()
        let kept = TileKey(level: 2, x: 0, y: 0), dropped = TileKey(level: 2, x: 1, y: 0)
        coverage.cover(kept, signature: signature, ids: [1, 2], received: Received(at: now - 10_000, validators: validators))
        coverage.cover(dropped, signature: signature, ids: [3], received: Received(at: now - 10_000))
        var read = try reread(coverage)
        let aging = read.dropExpired(now: now, timeToLive: 5)
        #expect(aging.stale == 1 && aging.dropped == 1 && aging.released == [3])
        #expect(read.heldIds == [1, 2])
        #expect(read.staleValidators(kept, signature: signature) == validators)
        let coveredStale = read.covers(grid.bounds(kept), grid: grid, signature: signature)
        #expect(!coveredStale)
        #expect(read.missingPieces(of: kept, signature: signature) == [kept])
        read.renew(kept, signature: signature, received: Received(at: now, validators: validators))
        #expect(read.staleValidators(kept, signature: signature) == nil)
        let coveredRenewed = read.covers(grid.bounds(kept), grid: grid, signature: signature)
        #expect(coveredRenewed)
    }

    @Test func truncatedAndFlippedFilesAreRefused() throws {
        let framed = CacheFiles.framed(PersistedCache.encode(try snapshot()), kind: .features)
        for length in stride(from: 0, to: framed.count, by: max(1, framed.count / 400)) {
            #expect(throws: FeatureCacheError.self) { try CacheFiles.check(Array(framed[0..<length]), kind: .features, path: "t") }
            let payload = Array(framed[min(length, CacheFiles.headerSize)..<length])
            _ = payload.withUnsafeBytes { try? PersistedCache.decode($0, path: "t") }  // past the checksum: no crash
            if !payload.isEmpty {  // and as a table reads it, the batches borrowing the bytes
                let image = FrozenBytes(payload)
                _ = try? PersistedCache.decode(image[0..<image.count], path: "t", within: image)
            }
        }
        var flipped = framed
        flipped[framed.count / 2] ^= 0x40
        #expect(throws: FeatureCacheError.self) { try CacheFiles.check(flipped, kind: .features, path: "t") }
        var newer = framed
        newer[8] = UInt8(CacheFiles.formatVersion + 1)
        do {
            try CacheFiles.check(newer, kind: .features, path: "t")
            Issue.record("a file of a later format was read")
        } catch {
            #expect(error.code == .storage && error.message.contains("format \(CacheFiles.formatVersion + 1)"))
        }
        try CacheFiles.check(framed, kind: .features, path: "t")
    }

    /// A features file as a disk may leave it (empty, cut short, whole) read
    /// the way a table reads it: the short ones set aside with their reason,
    /// the whole one read; never a crash.
    @Test func aFeaturesFileOfAnyLengthIsReadOrSetAside() throws {
        let root = "/tmp/fc-length-test-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        let original = try snapshot()
        let framed = CacheFiles.framed(PersistedCache.encode(original), kind: .features)
        for length in [0, 1, CacheFiles.headerSize, CacheFiles.headerSize + 1, framed.count / 2, framed.count - 1, framed.count] {
            let cache = try PersistedCache(root: root, identity: original.identity)
            try CacheFiles.replace(cache.featuresPath, with: Array(framed[0..<length]))
            let (read, setAside) = cache.readSnapshot()
            if length == framed.count {
                #expect(read != nil && setAside == nil)
                #expect(
                    read.map {
                        zip($0.entries, original.entries).allSatisfy { (try? sameBatch($0.slot.batch(nil), $1.slot.batch(nil))) ?? false }
                    } == true)
            } else {
                #expect(read == nil && setAside != nil, "\(length) bytes")
            }
        }
    }

    /// What a hosted layer records in editingInfo is the evidence of change:
    /// both dates, and the change-tracking generation where the layer has one.
    @Test func dataVersionFromRecordedLayers() throws {
        for (path, expected) in [
            ("arcgis-edits/terriajs-act-veg-map-FeatureServer-0-layer.json", "lastEditDate=1724214859574&dataLastEditDate=1721608500483"),
            (
                "arcgis-edits/maplibre-arcgis-points-layer-info.json",
                "lastEditDate=1694533059226&dataLastEditDate=1607017294831&serverGen=649144"
            ),
            ("arcgis-edits/terriajs-Water_Network-FeatureServer-2-layer.json", nil),
        ] as [(String, String?)] {
            let metadata = try ArcGISLayerInfo.parse(try JSONValue.parse(try Fixtures.bytes(path)), url: path)
            #expect(metadata.dataVersion == expected, "\(path)")
        }
    }

    /// A table waiting for a folder an evictor removes (holding its lock) ends
    /// up with the folder made anew and its lock, not a lock on a removed file.
    @Test func aFolderRemovedWhileWaitedForIsMadeAnew() throws {
        let folder = "/tmp/fc-evict-test-\(getpid())/7e"
        defer { _ = system("rm -rf '/tmp/fc-evict-test-\(getpid())'") }
        var held = try CacheFiles.Lock.folder(folder)
        #expect(held != nil)
        let waiter = Locked<Result<CacheFiles.Lock?, FeatureCacheError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "waiter").async {
            waiter.withLock { $0 = Result { () throws(FeatureCacheError) in try CacheFiles.Lock.folder(folder, patience: 30) } }
            done.signal()
        }
        usleep(100_000)
        CacheFiles.removeFolder(folder)
        held = nil
        done.wait()
        let lock = try #require(try waiter.withLock { $0 }?.get())
        #expect(CacheFiles.folders(in: "/tmp/fc-evict-test-\(getpid())").map(\.path) == [folder])
        // The new lock is the folder's: another taker finds it held.
        #expect(try CacheFiles.Lock(folder + "/lock", patience: 0, stamp: false) == nil)
        withExtendedLifetime(lock) {}
    }

    /// The disk budget takes the least recently used tables' folders, and
    /// nothing else a caller keeps under the cache folder.
    @Test func theDiskBudgetTakesOnlyTheCachesOldestFolders() throws {
        let root = "/tmp/fc-budget-test-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        let script = """
            mkdir -p \(root)/a1 \(root)/b2 \(root)/photos \(root)/c3 && cd \(root) && \
            head -c 1000 /dev/zero > a1/features.fcc && : > a1/lock && touch -d 2020-01-01 a1/features.fcc a1/lock && \
            head -c 1000 /dev/zero > b2/features.fcc && : > b2/lock && \
            head -c 5000 /dev/zero > photos/lock && head -c 5000 /dev/zero > c3/features.fcc && \
            head -c 50 /dev/zero > b2/notes.txt
            """
        #expect(system(script) == 0)
        #expect(CacheFiles.folders(in: root).map(\.path).sorted() == ["\(root)/a1", "\(root)/b2"])
        #expect(CacheDiskBudget.enforce(root: root, budget: 1500) == 1)
        #expect(CacheFiles.folders(in: root).map(\.path) == ["\(root)/b2"])
        #expect(access("\(root)/photos/lock", F_OK) == 0 && access("\(root)/c3/features.fcc", F_OK) == 0)
        // A folder holding someone else's file loses the cache's files only.
        #expect(CacheDiskBudget.enforce(root: root, budget: 1) == 1)
        #expect(access("\(root)/b2/notes.txt", F_OK) == 0 && access("\(root)/b2/features.fcc", F_OK) != 0)
    }

    /// The journal keeps every edit as recorded; a torn last record (a crash
    /// mid-append) is cut off and the records before it kept.
    @Test func journalReplaysUpToATornRecord() throws {
        let folder = "/tmp/fc-journal-test-\(getpid())"
        try CacheFiles.makeFolder(folder)
        defer { _ = system("rm -rf '\(folder)'") }
        let path = folder + "/edits.fcj"
        let row = try recordedBatches()[1].selecting([0])
        do {
            let (journal, contents) = try EditJournal.open(path)
            #expect(contents.edits.isEmpty)
            let log = LocalEditLog()
            log.attach(journal)
            for index in 0..<5 {
                var edit = LocalEdit(objectId: log.newLocalId(), kind: .add, current: row)
                edit.globalId = "g\(index)"
                try log.put(edit)
            }
            log.remove(-2)
            try log.markInDoubt([-3])
        }
        var bytes = try #require(try CacheFiles.readRaw(path))
        let (_, full) = try EditJournal.open(path)
        #expect(full.edits.map(\.objectId) == [-1, -3, -4, -5])
        #expect(full.edits.map(\.inDoubt) == [false, true, false, false])
        #expect(full.nextLocalId == -6)
        // Tear the last record (the in-doubt mark): the state before it.
        bytes.removeLast(7)
        try CacheFiles.replace(path, with: bytes)
        let (journal, torn) = try EditJournal.open(path)
        #expect(torn.edits.map(\.objectId) == [-1, -3, -4, -5])
        #expect(torn.edits.map(\.inDoubt) == [false, false, false, false])
        // Appending after the cut works.
        try journal.recordRemoval(-1, counters: (-6, 5))
        let (_, after) = try EditJournal.open(path)
        #expect(after.edits.map(\.objectId) == [-3, -4, -5])
    }

    /// Writes the fuzz target's seeds (FC_WRITE_FUZZ_SEEDS=1).
    @Test func writeFuzzSeeds() throws {
        guard let folder = getenv("FC_WRITE_FUZZ_SEEDS").map({ String(cString: $0) }), !folder.isEmpty else { return }
        try CacheFiles.replace(folder + "/features.bin", with: PersistedCache.encode(try snapshot()))
    }
}
