// SPDX-License-Identifier: Apache-2.0
// The store from 100,000 to 50,000,000 points, in memory and out of core
// (a memory budget with a folder: FeatureStore.spill, BatchSlot, SegmentCache):
//
//   swift run -c release fc-bench-outofcore COUNT BUDGET_MB FOLDER [GEOPACKAGE]
//
// COUNT trees (the bench/query layout: OBJECTID, Condition, DBH, a point over
// Portland, the same generator for every count) are built in pages of 2,000,
// compacted as a populate compacts them, and put in a store. BUDGET_MB 0: the
// store keeps everything in memory (as before this bench); else it spills to
// FOLDER and keeps within the budget. Then, for each of three window sizes
// (~200, ~2,000 and ~20,000 points), 200 viewport queries: cold (every
// segment let go before each query) and warm (the same window again), p50 and
// p99; a where clause over every row (`DBH > 30`, counted: rows per second);
// the cache written to FOLDER and reopened (a features file naming its
// segments: time to the first viewport answer); resident memory (VmRSS,
// VmHWM) at each step. With GEOPACKAGE, the windows are written to
// FOLDER/windows.csv for the peers (bench/outofcore/peers.py) to run the same.
import BenchSupport
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func residentMB(_ key: String) -> Double {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if text.hasPrefix(key) {
            let number = text.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return (number.flatMap { Double($0) } ?? -1) / 1024
        }
    }
    return -1
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, ["build", "open"].contains(arguments[1]), let count = Int(arguments[2]), let budgetMB = Int(arguments[3])
else {
    print("usage: fc-bench-outofcore build|open COUNT BUDGET_MB FOLDER")
    exit(2)
}
let opening = arguments[1] == "open"
// FC_BENCH_SHAPE=polygons: each feature a small square polygon instead of a point.
let polygons = getenv("FC_BENCH_SHAPE").map { String(cString: $0) } == "polygons"
let folder = arguments[4]
// FC_BENCH_EXPORT=DIR: the points (DIR/points.csv) and windows (DIR/windows-N.csv) for the peers.
let export = getenv("FC_BENCH_EXPORT").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
let pointsFile = opening ? nil : export.map { fopen($0 + "/points.csv", "w")! }
let budget = budgetMB << 20
let area = (xmin: -122.75, ymin: 45.43, xmax: -122.50, ymax: 45.60)

// A small linear congruential generator: the same points for every count's prefix.
final class Generator: @unchecked Sendable {
    var seed: UInt64
    init(_ seed: UInt64) { self.seed = seed }
}
let generator = Generator(0x9E37_79B9_7F4A_7C15)
/// The windows' own: the same windows whether or not the points were generated in this process.
let windowGenerator = Generator(0x2545_F491_4F6C_DD1D)
@inline(__always) func uniform(_ from: Generator = generator) -> Double {
    from.seed = from.seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(from.seed >> 11) / Double(1 << 53)
}

let fields = [
    FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Condition", type: .integer),
    FieldInfo(name: "DBH", type: .double),
]
print(
    "== \(arguments[1]) \(count) \(polygons ? "polygons" : "points"), budget \(budgetMB == 0 ? "none (all in memory)" : "\(budgetMB) MB")")
let store = FeatureStore()
store.setMemoryBudget(budget)
let featuresPath = folder + "/features.bench"
if opening {
    // A new process: the features file read (it names the segments), then the first viewport's answer.
    let reopenStart = now()
    guard let file = try CacheFiles.readWhole(featuresPath) else { fatalError("no features file: run build first") }
    let raw = UnsafeRawBufferPointer(rebasing: file.bytes[CacheFiles.headerSize...])
    let snapshot = try PersistedCache.decode(raw, version: CacheFiles.formatVersion, path: featuresPath, segmentFolder: folder)
    store.restore(snapshot.entries)
    let box = windows(fraction: 2000 / Double(count), n: 1)[0]
    let found = try viewport(box)
    print(
        "reopen to the first ~2,000-point answer (\(found) found): \(format((now() - reopenStart) * 1e3, 1)) ms; "
            + "\(snapshot.entries.count) segments named; resident \(format(residentMB("VmRSS:"), 0)) MB")
}
var start = now()
var cpuStart = clock()
var built = opening ? count : 0
var pending: [FeatureBatch] = []
while built < count {
    // A populate's worth at a time (at most 500,000 rows), compacted and applied.
    let chunk = min(500_000, count - built)
    var pages: [FeatureBatch] = []
    var done = 0
    while done < chunk {
        let n = min(2000, chunk - done)
        let builder = BatchBuilder(fields: fields, objectIdField: "OBJECTID")
        builder.reserveCapacity(n)
        for i in 0..<n {
            let oid = Int64(built + done + i + 1)
            let condition: Int64 = uniform() < 0.05 ? 4 : 1 + Int64(uniform() * 3)
            let dbh: Double? = uniform() < 0.03 ? nil : 2 + uniform() * 58
            let x = area.xmin + uniform() * (area.xmax - area.xmin), y = area.ymin + uniform() * (area.ymax - area.ymin)
            try builder.columns[0].appendInteger(oid)
            try builder.columns[1].appendInteger(condition)
            if let dbh { try builder.columns[2].appendDouble(dbh) } else { builder.columns[2].appendNull() }
            if polygons {
                // A square of ~20 m around the point: a 5-vertex ring, as parcels or buildings are.
                let half = 0.0001
                var wkb: [UInt8] = [1]
                func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { wkb += $0 } }
                put(UInt32(3))
                put(UInt32(1))
                put(UInt32(5))
                for (cx, cy) in [
                    (x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half), (x - half, y - half),
                ] {
                    put(cx.bitPattern)
                    put(cy.bitPattern)
                }
                var box = BoundingBox()
                box.add(x - half, y - half)
                box.add(x + half, y + half)
                builder.geometry.appendWKB(wkb, box)
            } else {
                try builder.geometry.appendPoint(x, y)
            }
            builder.endRow(everyColumnFilled: true)
            if let pointsFile { fputs("\(oid),\(x),\(y),\(condition),\(dbh.map { "\($0)" } ?? "")\n", pointsFile) }
        }
        pages.append(builder.finish())
        done += n
    }
    store.apply(FeatureBatch.compacting(pages), clearingFirst: false)
    built += chunk
    // A table over its budget spills at each save; here after each populate.
    if budget > 0 { try store.spill(into: folder, over: budget / 4) }
}
if budget > 0, !opening { try store.spill(into: folder, over: 0) }
if let pointsFile { fclose(pointsFile) }
if !opening {
    let buildSeconds = now() - start
    let buildCPU = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
    print(
        "build: \(format(buildSeconds)) s wall, \(format(buildCPU)) s CPU; cache \(format(Double(store.byteSize) / 1_048_576, 1)) MB "
            + "(\(format(Double(store.byteSize) / Double(count), 1)) bytes a point); resident \(format(residentMB("VmRSS:"), 0)) MB, "
            + "peak \(format(residentMB("VmHWM:"), 0)) MB")
    if budget > 0 {
        // Saved as a table saves: a features file naming the segments; `open` reads it in a new process.
        let bytes = PersistedCache.encode(
            PersistedCache.Snapshot(identity: "bench", metadata: TableMetadata(name: "bench"), entries: store.persistedEntries()))
        try CacheFiles.writeAtomically(bytes, kind: .features, version: CacheFiles.formatVersion, to: featuresPath)
        var disk = 0
        for name in CacheFiles.entries(of: folder) { disk += CacheFiles.size(folder + "/" + name) }
        print("saved: features file \(format(Double(bytes.count) / 1_048_576, 2)) MB, \(format(Double(disk) / 1_048_576, 0)) MB on disk")
        exit(0)
    }
}

// Windows: ~200, ~2,000, ~20,000 points at 1M … scaled to keep those counts at any size.
func windows(fraction: Double, n: Int) -> [Envelope] {
    var boxes: [Envelope] = []
    let side = fraction.squareRoot()
    let w = (area.xmax - area.xmin) * side, h = (area.ymax - area.ymin) * side
    for _ in 0..<n {
        let x = area.xmin + uniform(windowGenerator) * (area.xmax - area.xmin - w)
        let y = area.ymin + uniform(windowGenerator) * (area.ymax - area.ymin - h)
        boxes.append(Envelope(xmin: x, ymin: y, xmax: x + w, ymax: y + h, spatialReference: SpatialReference(wkid: 4326)))
    }
    return boxes
}

func viewport(_ box: Envelope) throws -> Int {
    var query = QueryParameters()
    query.geometry = .envelope(box)
    let local = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
    let result = try local.run(store.queryableSnapshot(), spatialReference: nil)
    var sum: Int64 = 0
    for row in 0..<result.count { sum &+= try result.objectId(row) }
    precondition(sum != -1)
    return result.count
}

// The where clause over every row, counted (timed at the end).
let whereClause: LocalQuery = try {
    var query = QueryParameters()
    query.whereClause = "DBH > 30"
    return try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
}()

// FC_BENCH_PROFILE=where: the where clause alone, three times (for perf), then stop.
if getenv("FC_BENCH_PROFILE").map({ String(cString: $0) }) == "where" {
    for _ in 0..<3 {
        let t = now()
        let matched = try whereClause.count(store.queryableSnapshot())
        print("where: \(matched) in \(format((now() - t) * 1e3, 1)) ms")
    }
    exit(0)
}
// FC_BENCH_PROFILE (any other value): one ~2,000-point window, warm, 5,000 times (for perf), then stop.
if getenv("FC_BENCH_PROFILE") != nil {
    let box = windows(fraction: 2000 / Double(count), n: 1)[0]
    _ = try viewport(box)
    let t = now()
    for _ in 0..<5000 { _ = try viewport(box) }
    print("warm ~2,000: \(format((now() - t) / 5000 * 1e6, 0)) µs a query")
    exit(0)
}
for target in [200.0, 2000.0, 20000.0] {
    let boxes = windows(fraction: target / Double(count), n: 200)
    if let export, let file = fopen(export + "/windows-\(Int(target)).csv", "w") {
        for box in boxes { fputs("\(box.xmin),\(box.ymin),\(box.xmax),\(box.ymax)\n", file) }
        fclose(file)
    }
    var cold: [Double] = [], warm: [Double] = []
    var found = 0
    for box in boxes {
        store.segments.removeAll()
        var t = now()
        found += try viewport(box)
        cold.append(now() - t)
        t = now()
        _ = try viewport(box)
        warm.append(now() - t)
    }
    print(
        "bbox ~\(Int(target)) points (found \(found / boxes.count) a window): cold p50 \(format(percentile(cold, 0.5) * 1e6, 0)) µs, "
            + "p99 \(format(percentile(cold, 0.99) * 1e6, 0)) µs; warm p50 \(format(percentile(warm, 0.5) * 1e6, 0)) µs, "
            + "p99 \(format(percentile(warm, 0.99) * 1e6, 0)) µs")
}

// The where clause over every row, counted.
do {
    store.segments.removeAll()
    var times: [Double] = []
    var matched = 0
    for _ in 0..<3 {
        let t = now()
        matched = try whereClause.count(store.queryableSnapshot())
        times.append(now() - t)
    }
    let best = times.min()!
    print(
        "where DBH > 30 over \(count) rows (\(matched) match), counted: first \(format(times[0] * 1e3, 1)) ms, "
            + "best \(format(best * 1e3, 1)) ms = \(format(Double(count) / best / 1e6, 0))M rows/s")
}
print("after the queries: resident \(format(residentMB("VmRSS:"), 0)) MB, peak \(format(residentMB("VmHWM:"), 0)) MB")

print("end: resident \(format(residentMB("VmRSS:"), 0)) MB, peak \(format(residentMB("VmHWM:"), 0)) MB")
