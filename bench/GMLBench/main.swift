// The GML reader alone on a saved WFS GetFeature response (bench/wfs.sh saves
// one of ~50 MB from MapServer: GML 3.2, tree points).
//
//   swift run -c release fc-bench-gml FILE [runs]
//
// First the bare libxml2 SAX pass with callbacks that do nothing (the ceiling
// for any reader on libxml2), then the GML reader building the columnar batch;
// best and median of the runs in MB/s and features/s.
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path): run bench/wfs.sh first") }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    var bytes = [UInt8](repeating: 0, count: size)
    _ = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
    return bytes
}

func format(_ value: Double, _ decimals: Int = 1) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = buffer.withUnsafeMutableBufferPointer { pointer in
        withVaList([value]) { vsnprintf(pointer.baseAddress, 64, "%.\(decimals)f", $0) }
    }
    return String(cString: buffer)
}

func measure(_ runs: Int, _ body: () throws -> Void) rethrows -> (best: Double, median: Double) {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = now()
        try body()
        times.append(now() - start)
    }
    times.sort()
    return (times[0], times[times.count / 2])
}

final class NothingSink: XMLEventSink {
    var elements = 0
    func start(_ tag: XMLStartTag) throws(FeatureCacheError) { elements += 1 }
    func end() throws(FeatureCacheError) {}
    func text(_ bytes: UnsafeRawBufferPointer) {}
}

let arguments = CommandLine.arguments
guard arguments.count > 1 else { fatalError("usage: fc-bench-gml FILE [runs]") }
let bytes = readFile(arguments[1])
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let megabytes = Double(bytes.count) / 1e6
// The trees' schema as MapServer's DescribeFeatureType gives it.
let fields = [FieldInfo(name: "id", type: .integer), FieldInfo(name: "Condition", type: .integer),
              FieldInfo(name: "Species", type: .string), FieldInfo(name: "DBH", type: .double),
              FieldInfo(name: "Planted", type: .string)]

let sax = try measure(runs) {
    try bytes.withUnsafeBytes { raw in try XMLStream.parse(raw, into: NothingSink(), what: "GML") }
}
var features = 0
let read = try measure(runs) {
    try bytes.withUnsafeBytes { raw in
        features = try GMLReader.read(raw, fields: fields, geometryProperty: "geom", identity: FeatureIdentity(), swapAxes: true).batch.count
    }
}
print("GML 3.2 response: \(format(megabytes)) MB, \(features) features, best of \(runs)")
print("libxml2 SAX, callbacks only: \(format(megabytes / sax.best)) MB/s (median \(format(megabytes / sax.median)))")
print("GML reader into the store:   \(format(megabytes / read.best)) MB/s (median \(format(megabytes / read.median))), "
      + "\(format(Double(features) / read.best / 1e6, 2)) M features/s")
