// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// A WFS endpoint: loadable, it negotiates the version (2.0.0, then 1.1.0, then
/// 1.0.0; a `VERSION` in the URL fixes it) and reads GetCapabilities. Feature-type
/// tables made from it depend on it strongly, as OGC API tables on `OGCService`.
///
/// Requests go to the URL the caller gave, not to the capabilities' operation
/// URLs: services often advertise internal host names there.
public final class WFSService: ServiceEndpoint, Loadable, @unchecked Sendable {  // lets of Sendable values only
    /// A version the URL asks for (no negotiation).
    let fixedVersion: WFSVersion?
    private let loaded = LoadedValue<WFSCapabilities>()
    /// Whether the server reads filter boxes latitude first, learned by a
    /// table's load (`WFSLoadProbes`), by "version CRS-name".
    let filterAxisEvidence = Locked<[String: Bool]>([:])

    /// The KVP parameters a GetCapabilities URL carries that the library sets itself.
    private static let ownParameters: Set<String> = ["service", "request", "version", "acceptversions", "typename", "typenames"]

    public init(url: String, context: ClientContext = .shared) throws(FeatureCacheError) {
        let parsed = try RequestURL(parsing: url)
        let version = parsed.parameters.first { $0.name.lowercased() == "version" }?.value
        if let version, WFSVersion(rawValue: version) == nil {
            throw FeatureCacheError.invalidArgument("WFS version '\(version)' in the URL is not supported (2.0.0, 1.1.0, 1.0.0)")
        }
        fixedVersion = version.flatMap(WFSVersion.init(rawValue:))
        var base = parsed
        for parameter in parsed.parameters where Self.ownParameters.contains(parameter.name.lowercased()) { base.remove(parameter.name) }
        // The endpoint: without the WFS request parameters.
        super.init(endpoint: base, context: context, label: "wfs-service")
    }

    /// A KVP request URL: the endpoint plus `SERVICE`, `VERSION`, `REQUEST`.
    func requestURL(_ request: String, version: WFSVersion) -> RequestURL {
        var url = endpoint
        url.set("SERVICE", "WFS")
        url.set("VERSION", version.rawValue)
        url.set("REQUEST", request)
        return url
    }

    public func performLoad(retrying: Bool) async throws(FeatureCacheError) {
        let requester = WFSRequester(context: context, serviceURL: url)
        var failures: [FeatureCacheError] = []
        var labels: [String] = []
        for version in fixedVersion.map({ [$0] }) ?? WFSVersion.allCases {
            let request = requester.get(requestURL("GetCapabilities", version: version))
            do {
                let response = try await requester.send(request)
                let capabilities = try WFSCapabilities.parse(response.body)
                // A server that does not speak `version` answers with its own (or
                // an exception): take what it offers if FeatureCache speaks it.
                loaded.set(capabilities)
                return
            } catch  where error.code != .cancelled && error.code != .network && error.code != .timeout && error.code != .protocol {
                // Authentication, rate limits and server failures are the same in
                // every version: no point asking again in another.
                if fixedVersion != nil || [401, 403, 407, 429].contains(error.httpStatus) || error.httpStatus >= 500 { throw error }
                failures.append(error)
                labels.append("\(version.rawValue): \(error.message)")
            }
        }
        // The failure that says most (an HTTP status, then a service answer, then
        // an unreadable document), with what every version answered.
        var error = failures.first { $0.httpStatus != 0 } ?? failures.first { $0.code == .service } ?? failures[0]
        error.message = "\(RequestURL.redacted(url)) is not a WFS FeatureCache can read: " + labels.joined(separator: "; ")
        throw error
    }

    func capabilities() throws(FeatureCacheError) -> WFSCapabilities {
        try loaded.get(of: self, "WFS service")
    }

    public var title: String { (try? capabilities().title) ?? "" }
    /// `CountDefault`, the most features the server puts in one response (nil until loaded).
    var countDefault: Int? { try? capabilities().countDefault }
    /// The negotiated version; nil until loaded.
    public var version: WFSVersion? { try? capabilities().version }
    /// The feature types GetCapabilities lists; `.invalidState` until loaded.
    public func featureTypes() throws(FeatureCacheError) -> [WFSFeatureTypeInfo] { try capabilities().featureTypes }
}
