// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The values a field may take beyond its type (ArcGIS attribute domains): a
/// list of coded values, or a numeric range. Edits outside it are refused
/// before they reach the service.
public enum FieldDomain: Sendable, Equatable {
    case codedValues(name: String, codes: [(code: AttributeValue, name: String)])
    case range(name: String, min: Double, max: Double)

    public var name: String {
        switch self {
        case let .codedValues(name, _), let .range(name, _, _): return name
        }
    }

    public static func == (lhs: FieldDomain, rhs: FieldDomain) -> Bool {
        switch (lhs, rhs) {
        case let (.codedValues(a, x), .codedValues(b, y)):
            return a == b && x.count == y.count && zip(x, y).allSatisfy { $0.code == $1.code && $0.name == $1.name }
        case let (.range(a, x0, x1), .range(b, y0, y1)): return a == b && x0 == y0 && x1 == y1
        default: return false
        }
    }

    /// Whether a (non-null) value is one the domain allows; coded numbers
    /// compare as numbers (a domain of 1, 2, 3 takes 2.0).
    public func allows(_ value: AttributeValue) -> Bool {
        switch self {
        case let .codedValues(_, codes):
            return codes.contains { code in
                if let a = code.code.number, let b = value.number { return a == b }
                return code.code == value
            }
        case let .range(_, low, high):
            guard let number = value.number else { return false }
            return number >= low && number <= high
        }
    }
}

/// What a service lets a client change in a table, read from its metadata
/// (ArcGIS `capabilities`, `allowGeometryUpdates`, …; a WFS `Transaction`
/// operation; OGC API Part 4 conformance and the API definition's methods).
public struct EditCapabilities: Sendable, Equatable {
    public var canAdd = false
    public var canUpdate = false
    public var canDelete = false
    /// Updates may change geometry (ArcGIS `allowGeometryUpdates`).
    public var allowsGeometryUpdates = true
    /// Adds may carry a GlobalID the client made, sent with `useGlobalIds`:
    /// an add whose answer was lost is then found on the server by it.
    public var supportsGlobalIds = false
    /// The service can apply a request all or nothing (ArcGIS
    /// `rollbackOnFailure`, a WFS Transaction).
    public var supportsRollback = false
    /// Updates must carry M values when the table has M (ArcGIS
    /// `allowUpdateWithoutMValues: false`).
    public var requiresMValues = false
    /// The field the service writes each edit's time into (editor tracking);
    /// nil when it keeps none.
    public var editDateField: String?
    /// The most edits one request may carry; 0 = the table's page size.
    public var maxEditsPerRequest = 0
    /// What the service said about editing, in its own words, for messages
    /// (ArcGIS: `capabilities "Query,Update"`); "" when it said nothing.
    public var declared = ""

    public init() {}

    public var isEditable: Bool { canAdd || canUpdate || canDelete }
}
