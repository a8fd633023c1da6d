// SPDX-License-Identifier: Apache-2.0
// What the Swift benchmarks share: a monotonic clock, whole-file reads, best and
// median of repeated runs, fixed-point formatting.
#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock.
public func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The whole file; stops the program with `hint` when it cannot be opened.
public func readFile(_ path: String, hint: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path): \(hint)") }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let size = ftell(file)
    fseek(file, 0, SEEK_SET)
    var bytes = [UInt8](repeating: 0, count: size)
    _ = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
    return bytes
}

/// `value` with `decimals` digits after the point.
public func format(_ value: Double, _ decimals: Int = 2) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = buffer.withUnsafeMutableBufferPointer { pointer in
        withVaList([value]) { vsnprintf(pointer.baseAddress, 64, "%.\(decimals)f", $0) }
    }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Runs `body` `runs` times; (best, median) seconds.
public func measure(_ runs: Int, _ body: () throws -> Void) rethrows -> (best: Double, median: Double) {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = now()
        try body()
        times.append(now() - start)
    }
    times.sort()
    return (times[0], times[times.count / 2])
}
