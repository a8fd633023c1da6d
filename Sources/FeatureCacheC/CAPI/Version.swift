// SPDX-License-Identifier: Apache-2.0
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

/// The version as a C string for the life of the process (made once, lazily and
/// thread-safely, from the one version in the core).
nonisolated(unsafe) private let versionCString: UnsafePointer<CChar> = UnsafePointer(strdup(FeatureCacheVersion.string)!)

@_cdecl("fc_version")
public func fcVersion() -> UnsafePointer<CChar> {
    versionCString
}

@_cdecl("fc_version_number")
public func fcVersionNumber() -> Int32 {
    FeatureCacheVersion.number
}
