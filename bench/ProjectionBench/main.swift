// SPDX-License-Identifier: Apache-2.0
// Projecting 1,000,000 points through the library (PROJ under it), the peer being
// pyproj's Transformer.transform on numpy arrays (projection_pyproj.py, the same
// PROJ): the same points (a 1000 × 1000 grid of lon/lat over Germany), the same
// pair (EPSG:4326 → EPSG:25832 by default), best of N runs.
//
//   swift run -c release fc-bench-projection [target-wkid] [rounds]
//
// Prints ns per point for the array path (interleaved x, y, one PROJ call) and
// the point path (one PROJ call per point, the operation borrowed once), and the
// sums of the results, which projection_pyproj.py prints too.
import BenchSupport
import FCData

let target = CommandLine.arguments.count > 1 ? Int32(CommandLine.arguments[1])! : 25832
let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 5
let side = 1000
let count = side * side

/// The grid: longitude 6°..15°, latitude 47°..55° (pyproj's script makes the same).
func grid() -> [Double] {
    var xy = [Double](repeating: 0, count: 2 * count)
    for i in 0..<count {
        xy[2 * i] = 6 + 9 * Double(i % side) / Double(side)
        xy[2 * i + 1] = 47 + 8 * Double(i / side) / Double(side)
    }
    return xy
}

guard let transform = try Projection.transform(from: 4326, to: target) else { fatalError("nothing to project") }
let source = grid()

var projected = source
let arrays = measure(rounds) {
    projected = source
    projected.withUnsafeMutableBufferPointer { transform.transform($0.baseAddress!, count: count) }
}
let points = measure(rounds) {
    var xy = source
    transform.withPointFunction { point in
        for i in 0..<count { (xy[2 * i], xy[2 * i + 1]) = point(xy[2 * i], xy[2 * i + 1]) }
    }
}

var sumX = 0.0, sumY = 0.0
for i in 0..<count {
    sumX += projected[2 * i]
    sumY += projected[2 * i + 1]
}
func perPoint(_ seconds: Double) -> String { "\(format(seconds / Double(count) * 1e9, 1)) ns/point (\(format(seconds)) s)" }
print("featurecache: \(transform.label), \(count) points, best of \(rounds)")
print("  arrays (one PROJ call):  \(perPoint(arrays.best)), median \(format(arrays.median)) s")
print("  point by point:          \(perPoint(points.best)), median \(format(points.median)) s")
print("  sums: x \(format(sumX, 6)), y \(format(sumY, 6))")
