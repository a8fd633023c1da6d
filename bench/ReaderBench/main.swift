// SPDX-License-Identifier: Apache-2.0
// Reader throughput and cache memory on the files bench/make_data.py writes.
//
//   swift run -c release fc-bench-readers [bench/data] [runs]
//
// For each file: a bare syntax scan of the bytes (the ceiling; JSON only), then
// the reader that builds the columnar batch (Esri JSON, GeoJSON or Esri PBF),
// best and median of the runs, in features/s and MB/s. Then the trees in a FeatureStore: bytes per
// cached feature, split into attribute columns and everything else.
import BenchSupport
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let arguments = CommandLine.arguments
let directory = arguments.count > 1 ? arguments[1] : "bench/data"
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 7 : 7

let treeFields = [
    FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Condition", type: .smallInteger),
    FieldInfo(name: "Species", type: .string), FieldInfo(name: "DBH", type: .double), FieldInfo(name: "Planted", type: .date),
]
let parcelFields = [
    FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Zone", type: .string),
    FieldInfo(name: "AreaSqM", type: .double), FieldInfo(name: "YearBuilt", type: .integer),
]

print("file                 features      MB   scan MB/s   read best s  median s   features/s     MB/s")
/// FC_BENCH_ONLY=trees.geojson reads that file alone (for a profiler).
let only = getenv("FC_BENCH_ONLY").map { String(cString: $0) }
for (name, fields) in [("trees", treeFields), ("trees-17digits", treeFields), ("parcels", parcelFields)] {
    for kind in ["json", "geojson", "pbf"] where only == nil || only == "\(name).\(kind)" {
        let path = "\(directory)/\(name).\(kind)"
        if kind == "pbf", name.hasSuffix("17digits") { continue }  // integers: no digits to print
        let bytes = readFile(path, hint: "run bench/make_data.py")
        let megabytes = Double(bytes.count) / 1e6
        let scan =
            kind == "pbf"
            ? nil
            : try measure(runs) {
                try bytes.withUnsafeBytes { raw in
                    var scanner = JSONScanner(raw)
                    try scanner.skipValue()
                    try scanner.finish()
                }
            }
        var count = 0
        let read = try measure(runs) {
            let batch: FeatureBatch = try bytes.withUnsafeBytes { raw in
                if kind == "json" {
                    return try EsriJSONReader.read(raw, fields: fields, objectIdField: "OBJECTID").batch
                }
                if kind == "pbf" {
                    return try EsriPBFReader.read(raw, fields: fields, objectIdField: "OBJECTID").batch
                }
                return try GeoJSONReader.read(raw, fields: fields, objectIdField: "OBJECTID", identity: FeatureIdentity()).batch
            }
            count = batch.count
        }
        let label = "\(name).\(kind)".rightPadded(20)
        let scanned = scan.map { format(megabytes / $0.best, 0) } ?? "-"
        print(
            "\(label) \(String(count).leftPadded(9)) \(format(megabytes, 1).leftPadded(7)) \(scanned.leftPadded(11)) "
                + "\(format(read.best, 3).leftPadded(13)) \(format(read.median, 3).leftPadded(9)) "
                + "\(format(Double(count) / read.best, 0).leftPadded(12)) \(format(megabytes / read.best, 0).leftPadded(8))")
    }
}

// Memory of the cache: the trees as a populate leaves them, 100 pages of 2,000
// (trees-pages.json is a JSON array of the 100 page documents the emulator serves).
do {
    let bytes = readFile("\(directory)/trees-pages.json", hint: "run bench/make_data.py")
    var pages: [FeatureBatch] = []
    try bytes.withUnsafeBytes { raw in
        var scanner = JSONScanner(raw)
        try scanner.beginArray()
        while try scanner.nextElement() {
            _ = scanner.peek()
            let start = scanner.offset
            try scanner.skipValue()
            let page = UnsafeRawBufferPointer(rebasing: raw[start..<scanner.offset])
            pages.append(try EsriJSONReader.read(page, fields: treeFields, objectIdField: "OBJECTID").batch)
        }
    }
    let store = FeatureStore()
    // As a populate writes them: compacted (best of 5, timed: concatenation and
    // spatial row order), then merged into the store.
    var compacted: [FeatureBatch] = []
    var compaction = Double.infinity
    for _ in 0..<5 {
        let start = now()
        compacted = FeatureBatch.compacting(pages)
        compaction = min(compaction, now() - start)
    }
    store.apply(compacted, clearingFirst: true)
    let attributes = pages.reduce(0) { $0 + $1.columns.reduce(0) { $0 + $1.byteSize } }
    let total = store.byteSize
    let features = Double(store.count)
    print("")
    print(
        "cache of \(store.count) trees from \(pages.count) pages in \(compacted.count) batches: \(format(Double(total) / features, 1)) bytes/feature in all, "
            + "\(format(Double(attributes) / features, 1)) in attribute columns, "
            + "\(format(Double(total - attributes) / features, 1)) beyond them (geometry, id index, bitmaps); "
            + "compacted in \(format(compaction * 1000, 1)) ms")
}
print("peak RSS: \(format(peakRSSMegabytes(), 0)) MB")

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    func rightPadded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
