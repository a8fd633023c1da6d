// SPDX-License-Identifier: Apache-2.0
// The GML reader alone on a saved WFS GetFeature response (bench/wfs.sh saves
// one of ~50 MB from MapServer: GML 3.2, tree points).
//
//   swift run -c release fc-bench-gml FILE [runs]
//
// First the bare libxml2 SAX pass with callbacks that do nothing (the ceiling
// for any reader on libxml2), then the GML reader building the columnar batch;
// best and median of the runs in MB/s and features/s.
import BenchSupport
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

final class NothingSink: XMLEventSink {
    var elements = 0
    func start(_ tag: XMLStartTag) throws(FeatureCacheError) { elements += 1 }
    func end() throws(FeatureCacheError) {}
    func text(_ bytes: UnsafeRawBufferPointer) {}
}

let arguments = CommandLine.arguments
guard arguments.count > 1 else { fatalError("usage: fc-bench-gml FILE [runs]") }
let bytes = readFile(arguments[1], hint: "run bench/wfs.sh first")
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let megabytes = Double(bytes.count) / 1e6
// The trees' schema as MapServer's DescribeFeatureType gives it.
let fields = [
    FieldInfo(name: "id", type: .integer), FieldInfo(name: "Condition", type: .integer),
    FieldInfo(name: "Species", type: .string), FieldInfo(name: "DBH", type: .double),
    FieldInfo(name: "Planted", type: .string),
]

let sax = try measure(runs) {
    try bytes.withUnsafeBytes { raw in try XMLStream.parse(raw, into: NothingSink(), what: "GML") }
}
var features = 0
let read = try measure(runs) {
    try bytes.withUnsafeBytes { raw in
        features = try GMLReader.read(raw, fields: fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: true).batch
            .count
    }
}
print("GML 3.2 response: \(format(megabytes, 1)) MB, \(features) features, best of \(runs)")
print("libxml2 SAX, callbacks only: \(format(megabytes / sax.best, 1)) MB/s (median \(format(megabytes / sax.median, 1)))")
print(
    "GML reader into the store:   \(format(megabytes / read.best, 1)) MB/s (median \(format(megabytes / read.median, 1))), "
        + "\(format(Double(features) / read.best / 1e6, 2)) M features/s")
