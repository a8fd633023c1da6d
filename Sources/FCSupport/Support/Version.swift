// SPDX-License-Identifier: Apache-2.0
internal import CFeatureCacheABI

/// The library version, also the C ABI's `fc_version()`: read from the
/// `FC_VERSION_MAJOR/MINOR/PATCH` lines of include/featurecache.h, the one place it is written.
public enum FeatureCacheVersion {
    public static let major = Int(FC_VERSION_MAJOR)
    public static let minor = Int(FC_VERSION_MINOR)
    public static let patch = Int(FC_VERSION_PATCH)
    public static var string: String { "\(major).\(minor).\(patch)" }
    /// major * 10000 + minor * 100 + patch, as `FC_VERSION_NUMBER`.
    public static var number: Int32 { Int32(major * 10000 + minor * 100 + patch) }
}
