import FeatureCache

private let versionString: StaticString = "0.1.0"

@_cdecl("fc_version")
public func fcVersion() -> UnsafePointer<CChar> {
    UnsafeRawPointer(versionString.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("fc_version_number")
public func fcVersionNumber() -> Int32 {
    FeatureCacheVersion.number
}
