// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// WFS versions FeatureCache speaks. 1.0.0 is read (capabilities, GML 2) for
/// servers that offer nothing newer.
public enum WFSVersion: String, Sendable, CaseIterable {
    case v200 = "2.0.0"
    case v110 = "1.1.0"
    case v100 = "1.0.0"

    var isV2: Bool { self == .v200 }
    /// The KVP name of the type parameter.
    var typeNamesParameter: String { isV2 ? "TYPENAMES" : "TYPENAME" }
    var countParameter: String { isV2 ? "COUNT" : "MAXFEATURES" }
    var filterVersion: FESFilter.Version { isV2 ? .fes20 : self == .v100 ? .filter10 : .filter11 }
}

/// A feature type as GetCapabilities lists it.
public struct WFSFeatureTypeInfo: Sendable {
    /// The name as the server writes it (with its prefix, e.g. `ms:trees`).
    public var name: String
    public var title: String
    public var abstract: String
    /// The default CRS as written (`urn:ogc:def:crs:EPSG::4326`, `EPSG:4326`, …).
    public var defaultCRS: String
    public var otherCRS: [String]
    /// Output formats listed for this type (empty: the service-wide list applies).
    public var outputFormats: [String]
    /// `WGS84BoundingBox` (1.1/2.0) or `LatLongBoundingBox` (1.0), lon/lat.
    var wgs84Box: BoundingBox?
    /// The operations listed for this type (`Query`, `Insert`, `Update`,
    /// `Delete`; 1.0 and 1.1 list them per type); nil when the type lists none.
    var operations: Set<String>?

    /// The name without its prefix.
    public var localName: String { name.split(separator: ":").last.map(String.init) ?? name }
}

/// What a WFS GetCapabilities document says, for any of the three versions.
public struct WFSCapabilities: Sendable {
    public var version: WFSVersion
    public var title = ""
    public var abstract = ""
    public var featureTypes: [WFSFeatureTypeInfo] = []
    /// GetFeature `outputFormat` values (service-wide).
    public var outputFormats: [String] = []
    /// GetFeature endpoints (GET and POST); nil when the document gives none.
    public var getFeatureURL: String?
    public var getFeaturePostURL: String?
    public var describeFeatureTypeURL: String?
    /// `ImplementsResultPaging` (2.0); 1.x pages with MAXFEATURES only.
    public var implementsResultPaging = false
    /// `CountDefault`: the most features one response holds (0 = not said).
    public var countDefault = 0
    /// Filter capabilities: spatial and comparison operator names as listed
    /// (`BBOX`, `Intersects`, `PropertyIsLessThan` / `LessThan`, …).
    public var spatialOperators: [String] = []
    public var comparisonOperators: [String] = []
    public var hasFilterCapabilities = false
    /// The service offers `Transaction` (WFS-T), and where to POST it.
    public var supportsTransaction = false
    public var transactionURL: String?

    /// The feature type named `name`, with or without its prefix.
    public func featureType(_ name: String) -> WFSFeatureTypeInfo? {
        if let exact = featureTypes.first(where: { $0.name == name }) { return exact }
        let local = name.split(separator: ":").last.map(String.init) ?? name
        return featureTypes.first { $0.localName == local }
    }

    public static func parse(_ bytes: [UInt8]) throws(FeatureCacheError) -> WFSCapabilities {
        let root = try XMLElement.parse(bytes, what: "WFS GetCapabilities")
        if let exception = WFSException(root) { throw exception.error(status: 200) }
        guard root.name == "WFS_Capabilities" else {
            throw FeatureCacheError(.parse, "not a WFS GetCapabilities document (root element '\(root.name)')")
        }
        let versionText = root.attribute("version") ?? ""
        guard
            let version = WFSVersion(rawValue: versionText)
                ?? (versionText.hasPrefix("2.") ? .v200 : versionText.hasPrefix("1.1") ? .v110 : versionText.hasPrefix("1.0") ? .v100 : nil)
        else {
            throw FeatureCacheError(.unsupported, "WFS version '\(versionText)' is not supported (2.0.0, 1.1.0 and 1.0.0 are)")
        }
        var capabilities = WFSCapabilities(version: version)
        if let identification = root.child("ServiceIdentification") ?? root.child("Service") {
            capabilities.title = identification.childText("Title")
            capabilities.abstract = identification.childText("Abstract")
        }
        if version == .v100 {
            capabilities.readCapability100(root)
        } else if let operations = root.child("OperationsMetadata") {
            capabilities.readOperations(operations)
        }
        capabilities.featureTypes = (root.child("FeatureTypeList")?.children("FeatureType") ?? []).compactMap(Self.featureType)
        if let filter = root.child("Filter_Capabilities") {
            capabilities.hasFilterCapabilities = true
            capabilities.spatialOperators =
                filter.descendants("SpatialOperator").compactMap { $0.attribute("name") }
                + (filter.descendant("Spatial_Operators")?.children.map(\.name) ?? [])
            capabilities.comparisonOperators =
                filter.descendants("ComparisonOperator").map { $0.attribute("name") ?? $0.text }
                + (filter.descendant("Comparison_Operators")?.children.map(\.name) ?? [])
        }
        return capabilities
    }

    private static func featureType(_ element: XMLElement) -> WFSFeatureTypeInfo? {
        let name = element.childText("Name")
        guard !name.isEmpty else { return nil }
        let defaultCRS =
            [element.childText("DefaultCRS"), element.childText("DefaultSRS"), element.childText("SRS")].first { !$0.isEmpty } ?? ""
        let other = (element.children("OtherCRS") + element.children("OtherSRS")).map(\.text).filter { !$0.isEmpty }
        var box: BoundingBox? = nil
        if let wgs84 = element.child("WGS84BoundingBox"),
            let low = numbers(wgs84.childText("LowerCorner")), let high = numbers(wgs84.childText("UpperCorner")),
            low.count >= 2, high.count >= 2
        {
            box = BoundingBox(low[0], low[1], high[0], high[1])
        } else if let latLong = element.child("LatLongBoundingBox"),
            let minx = latLong.attribute("minx").flatMap(Double.init), let miny = latLong.attribute("miny").flatMap(Double.init),
            let maxx = latLong.attribute("maxx").flatMap(Double.init), let maxy = latLong.attribute("maxy").flatMap(Double.init)
        {
            box = BoundingBox(minx, miny, maxx, maxy)
        }
        // 1.0: <Operations><Insert/>…</Operations>; 1.1: <Operations><Operation>Insert</Operation>….
        let operations = element.child("Operations").map { list in
            Set(list.children.map { $0.name == "Operation" ? $0.text : $0.name }.filter { !$0.isEmpty })
        }
        return WFSFeatureTypeInfo(
            name: name, title: element.childText("Title").isEmpty ? name : element.childText("Title"),
            abstract: element.childText("Abstract"), defaultCRS: defaultCRS, otherCRS: other,
            outputFormats: element.child("OutputFormats")?.children("Format").map(\.text) ?? [],
            wgs84Box: box, operations: operations)
    }

    /// 1.1/2.0: `ows:OperationsMetadata`.
    private mutating func readOperations(_ operations: XMLElement) {
        for operation in operations.children("Operation") {
            let name = operation.attribute("name") ?? ""
            let get = operation.descendant("Get")?.attribute("href")
            let post = operation.descendant("Post")?.attribute("href")
            if name == "GetFeature" {
                getFeatureURL = get
                getFeaturePostURL = post
                for parameter in operation.children("Parameter") where parameter.attribute("name")?.lowercased() == "outputformat" {
                    outputFormats = parameter.descendants("Value").map(\.text)
                }
                readConstraints(operation)
            } else if name == "DescribeFeatureType" {
                describeFeatureTypeURL = get
            } else if name == "Transaction" {
                supportsTransaction = true
                transactionURL = post
            }
        }
        readConstraints(operations)
        if version == .v110, outputFormats.isEmpty,
            let parameter = operations.children("Parameter").first(where: { $0.attribute("name")?.lowercased() == "outputformat" })
        {
            outputFormats = parameter.descendants("Value").map(\.text)
        }
    }

    private mutating func readConstraints(_ element: XMLElement) {
        for constraint in element.children("Constraint") {
            let value = (constraint.child("DefaultValue") ?? constraint.descendant("Value"))?.text ?? ""
            switch constraint.attribute("name") ?? "" {
            case "ImplementsResultPaging": implementsResultPaging = value.uppercased() == "TRUE"
            case "CountDefault", "DefaultMaxFeatures": if let count = Int(value), count > 0 { countDefault = count }
            default: break
            }
        }
    }

    /// 1.0: `Capability/Request/GetFeature` with `ResultFormat` and `DCPType`.
    private mutating func readCapability100(_ root: XMLElement) {
        guard let request = root.child("Capability")?.child("Request") else { return }
        if let getFeature = request.child("GetFeature") {
            outputFormats = getFeature.child("ResultFormat")?.children.map(\.name) ?? []
            getFeatureURL = getFeature.descendant("Get")?.attribute("onlineResource")
            getFeaturePostURL = getFeature.descendant("Post")?.attribute("onlineResource")
        }
        describeFeatureTypeURL = request.child("DescribeFeatureType")?.descendant("Get")?.attribute("onlineResource")
        if let transaction = request.child("Transaction") {
            supportsTransaction = true
            transactionURL = transaction.descendant("Post")?.attribute("onlineResource")
        }
    }

    static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }).map { Double($0) }
        return parts.contains(where: { $0 == nil }) ? nil : parts.map { $0! }
    }
}

/// An OWS `ExceptionReport` (1.1/2.0) or `ServiceExceptionReport` (1.0).
struct WFSException {
    var code: String
    var locator: String
    var text: String

    init?(_ root: XMLElement) {
        guard root.name == "ExceptionReport" || root.name == "ServiceExceptionReport" else { return nil }
        let exception = root.descendant("Exception") ?? root.descendant("ServiceException")
        code = exception?.attribute("exceptionCode") ?? exception?.attribute("code") ?? ""
        locator = exception?.attribute("locator") ?? ""
        text =
            (exception?.descendants("ExceptionText").map(\.text).joined(separator: " ")).flatMap { $0.isEmpty ? nil : $0 } ?? exception?
            .text ?? ""
    }

    func error(status: Int32) -> FeatureCacheError {
        let detail = [code, locator.isEmpty ? "" : "(\(locator))"].filter { !$0.isEmpty }.joined(separator: " ")
        return FeatureCacheError(
            .service, "the WFS reported an exception\(detail.isEmpty ? "" : " \(detail)"): \(text.isEmpty ? "(no text)" : text)",
            httpStatus: status)
    }

    /// How much of a body `looksLikeException` reads.
    static let headBytes = 2048

    /// Whether `bytes` look like an exception report (the root element, within the first bytes).
    static func looksLikeException(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(headBytes), as: UTF8.self)
        return head.contains("ExceptionReport")
    }
}
