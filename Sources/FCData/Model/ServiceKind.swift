// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The kinds of service a table can read. Raw values are the C ABI's
/// `FC_SERVICE_*`; each adapter declares its own (`ServiceKind.arcgis` lives
/// with the ArcGIS adapter), so adding one touches nothing here.
public struct ServiceKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
}
