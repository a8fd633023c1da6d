// SPDX-License-Identifier: Apache-2.0
// Viewport queries on a million cached points (the files bench/query/make_points.py
// writes): the points go through the Esri JSON reader in pages of 2,000 into a
// FeatureStore, as a populate would put them there; then each of 200 windows of
// ~2,000 points is queried (result built and every object id read), without and
// with a where clause, and a where clause alone runs over all 1,000,000 rows;
// then ORDER BY over all of them (FC_BENCH_ONLY=order).
//
//   swift run -c release fc-bench-query [bench/data] [rounds]
//
// Prints p50/p99 latency per kind of query, in microseconds.
import BenchSupport
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

func lines(_ path: String) -> [[Substring]] {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path): run bench/query/make_points.py") }
    defer { fclose(file) }
    var out: [[Substring]] = []
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, 256, file) != nil {
        let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.dropLast()
        out.append(line.split(separator: ",", omittingEmptySubsequences: false))
    }
    return out
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

let directory = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "bench/data"
let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 3
let fields = [
    FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Condition", type: .integer),
    FieldInfo(name: "DBH", type: .double),
]

// Load: Esri JSON pages of 2,000 through the reader into the store.
let rows = lines("\(directory)/points-1m.csv")
let store = FeatureStore()
let loadStart = now()
var batches: [FeatureBatch] = []
var page = 0
while page * 2000 < rows.count {
    var json = #"{"objectIdFieldName":"OBJECTID","spatialReference":{"wkid":4326},"features":["#
    for (i, row) in rows[(page * 2000)..<min(rows.count, (page + 1) * 2000)].enumerated() {
        if i > 0 { json += "," }
        json +=
            #"{"attributes":{"OBJECTID":\#(row[0]),"Condition":\#(row[3]),"DBH":\#(row[4].isEmpty ? "null" : row[4])},"geometry":{"x":\#(row[1]),"y":\#(row[2])}}"#
    }
    json += "]}"
    let batch = try Array(json.utf8).withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OBJECTID") }.batch
    batches.append(batch)
    page += 1
}
// As a populate writes them: the pages compacted into a few large batches.
let compacted = FeatureBatch.compacting(batches)
store.apply(compacted, clearingFirst: true)
print(
    "loaded \(store.count) points from \(batches.count) pages in \(compacted.count) batches (\(fixed(now() - loadStart, 1)) s, \(store.byteSize / 1_000_000) MB cached)"
)

let windows = lines("\(directory)/windows.csv").map { $0.map { Double($0)! } }
let live = store.queryableSnapshot()

func run(_ label: String, where clause: String, spatial: Bool) throws {
    var latencies: [Double] = []
    var returned = 0
    let targets = spatial ? windows : Array(repeating: [], count: 20)
    for _ in 0..<rounds {
        for window in targets {
            var query = QueryParameters()
            query.whereClause = clause
            if spatial {
                query.geometry = .envelope(
                    Envelope(
                        xmin: window[0], ymin: window[1], xmax: window[2], ymax: window[3],
                        spatialReference: .wgs84))
            }
            let start = now()
            let local = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
            let result = try local.run(live, spatialReference: .wgs84)
            var checksum: Int64 = 0
            for row in 0..<result.count { checksum &+= try result.objectId(row) }
            latencies.append((now() - start) * 1e6)
            returned += result.count
            if checksum == -1 { print("") }  // keep the reads
        }
    }
    print(
        pad(label, 36) + "p50 " + pad(fixed(percentile(latencies, 0.5), 1), 9, left: true) + " µs   p99 "
            + pad(fixed(percentile(latencies, 0.99), 1), 9, left: true) + " µs   "
            + pad(fixed(Double(returned) / Double(latencies.count), 0), 7, left: true) + " features/query")
}

func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
}

/// ORDER BY over all 1,000,000 rows: the result built and every object id read in order.
func runOrder(_ label: String, _ orderBy: String) throws {
    var latencies: [Double] = []
    var query = QueryParameters()
    query.orderBy = orderBy
    for _ in 0..<(3 * rounds) {
        let start = now()
        let result = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
            .run(live, spatialReference: .wgs84)
        var checksum: Int64 = 0
        for row in 0..<result.count { checksum = checksum &* 31 &+ (try result.objectId(row)) }
        latencies.append((now() - start) * 1e3)
        if checksum == -1 { print("") }
    }
    print(
        pad(label, 36) + "p50 " + pad(fixed(percentile(latencies, 0.5), 1), 9, left: true) + " ms   best "
            + pad(fixed(latencies.min()!, 1), 9, left: true) + " ms")
}

// FC_BENCH_ONLY=bbox|where|scan|order runs one kind only (for profiling).
let only = getenv("FC_BENCH_ONLY").map { String(cString: $0) }
if only == nil || only == "bbox" { try run("bbox (~2,000 of 1M)", where: "", spatial: true) }
if only == nil || only == "where" { try run("bbox + where", where: "Condition < '4' AND DBH > 20", spatial: true) }
if only == nil || only == "scan" {
    try run("where alone over 1M rows", where: "Condition < '4' AND DBH > 20", spatial: false)
    try run("where alone over 1M rows (1 term)", where: "Condition = 4", spatial: false)
    // The filter alone, without building a 634k-row result and reading its ids.
    var query = QueryParameters()
    query.whereClause = "Condition < '4' AND DBH > 20"
    let local = try LocalQuery(query, definitionExpression: "", fields: fields, tableWkid: 4326)
    var latencies: [Double] = []
    for _ in 0..<(20 * rounds) {
        let start = now()
        _ = try local.count(live)
        latencies.append((now() - start) * 1e6)
    }
    print(
        pad("where alone over 1M rows, count", 36) + "p50 " + pad(fixed(percentile(latencies, 0.5), 1), 9, left: true)
            + " µs   p99 " + pad(fixed(percentile(latencies, 0.99), 1), 9, left: true) + " µs")
}
if only == nil || only == "order" {
    try runOrder("order by OBJECTID over 1M rows", "OBJECTID")
    try runOrder("order by Condition (ties by id)", "Condition")
    try runOrder("order by DBH DESC", "DBH DESC")
    try runOrder("order by Condition, DBH DESC", "Condition, DBH DESC")
}
