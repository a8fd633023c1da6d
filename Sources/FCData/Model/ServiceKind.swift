// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The kinds of service a table can read. Raw values are the C ABI's
/// `FC_SERVICE_*`; each adapter declares its own (`ServiceKind.arcgis` lives
/// with the ArcGIS adapter), so adding one touches nothing here. Two kinds are
/// equal when their raw values are.
public struct ServiceKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    /// What messages call it: "ArcGIS", "OGC API", "WFS", "feature document".
    public let name: String

    public init(rawValue: Int32) { self.init(rawValue: rawValue, name: "service kind \(rawValue)") }

    public init(rawValue: Int32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static func == (lhs: ServiceKind, rhs: ServiceKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
