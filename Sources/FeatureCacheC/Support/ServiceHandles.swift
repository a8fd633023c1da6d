// SPDX-License-Identifier: Apache-2.0
import FeatureCache

/// What the three service handles (`fc_arcgis_service`, `fc_ogc_service`,
/// `fc_wfs_service`) share: checked creation and typed borrowing.
enum ServiceHandles {
    /// The service behind a handle of `kind` (the handle lends strings to C).
    static func borrow<Service: AnyObject>(
        _ pointer: OpaquePointer?, _ kind: Handle.Kind,
        as type: Service.Type
    ) throws(FeatureCacheError) -> (Handle, Service) {
        let handle = try Handles.borrow(pointer, kind, "service")
        guard let service = handle.object as? Service else {
            throw FeatureCacheError(.invalidArgument, "service is not a \(Service.self)")
        }
        return (handle, service)
    }

    /// `fc_*_service_create`: checks `out`, the context and the URL (named
    /// `urlName` in errors), then exports a handle of `kind` for what `make` builds.
    static func create(
        _ ctx: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ urlName: String,
        _ out: UnsafeMutablePointer<OpaquePointer?>?, _ kind: Handle.Kind,
        _ make: (String, ClientContext) throws(FeatureCacheError) -> AnyObject
    ) -> Int32 {
        out?.pointee = nil
        return status { () throws(FeatureCacheError) in
            let out = try CArguments.output(out)
            let context = try context(ctx)
            let url = try CArguments.string(url, urlName)
            out.pointee = Handles.export(Handle(kind, try make(url, context)))
        }
    }
}
