// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's entry points. One binary serves every target; FC_FUZZ_TARGET
/// names the one a run exercises (scripts/fuzz.sh sets it). An error thrown by
/// a target is the expected outcome for most inputs; a crash, a hang, a leak or
/// a sanitizer report is a finding.
nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    let name = getenv("FC_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        print("set FC_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    target = chosen
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
