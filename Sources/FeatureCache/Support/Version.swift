/// The library version, also the C ABI's `fc_version()`.
public enum FeatureCacheVersion {
    public static let major = 0
    public static let minor = 6
    public static let patch = 0
    public static var string: String { "\(major).\(minor).\(patch)" }
    /// major * 10000 + minor * 100 + patch, as `FC_VERSION_NUMBER`.
    public static var number: Int32 { Int32(major * 10000 + minor * 100 + patch) }
}
