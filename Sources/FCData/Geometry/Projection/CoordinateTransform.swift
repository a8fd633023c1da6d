// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Takes coordinates (x = easting or longitude, y = northing or latitude) from
/// one spatial reference to another: a formula for the pair web maps mix
/// (WGS84 ↔ Web Mercator: exact, and a few nanoseconds a point), PROJ for
/// every other pair. Any task may use it.
package struct CoordinateTransform: Sendable {
    private enum Method: Sendable {
        case formula(@Sendable (Double, Double) -> (Double, Double))
        case proj(PROJOperation)
    }
    private let method: Method
    /// What it is between, for messages (`EPSG:4326 → EPSG:25832`).
    package let label: String

    package init(formula: @escaping @Sendable (Double, Double) -> (Double, Double), label: String) {
        method = .formula(formula)
        self.label = label
    }

    package init(_ operation: PROJOperation, label: String) {
        method = .proj(operation)
        self.label = label
    }

    /// x and y exchanged (a server sending latitude first).
    package static let swappingAxes = CoordinateTransform(formula: { ($1, $0) }, label: "axes swapped")

    /// The formula maps axis-parallel lines to axis-parallel lines (Mercator is
    /// separable), so a rectangle's corners give its projected rectangle; a
    /// PROJ operation may curve its edges.
    package var keepsRectangles: Bool {
        if case .formula = method { return true }
        return false
    }

    /// The operation's accuracy in metres: 0 for the exact formula, PROJ's
    /// figure otherwise; nil when PROJ does not know it.
    package var accuracy: Double? {
        switch method {
        case .formula: return 0
        case let .proj(operation): return operation.accuracy
        }
    }

    /// Runs `body` with a point function for the duration of the call (PROJ's
    /// operation borrowed once, not per point). Points that cannot be projected
    /// come back non-finite.
    package func withPointFunction<R, E: Error>(_ body: ((Double, Double) -> (Double, Double)) throws(E) -> R) throws(E) -> R {
        switch method {
        case let .formula(formula): return try body(formula)
        case let .proj(operation): return try operation.withPointFunction(body)
        }
    }

    /// One point (for many, `withPointFunction` borrows PROJ's operation once).
    package func callAsFunction(_ x: Double, _ y: Double) -> (Double, Double) {
        withPointFunction { $0(x, y) }
    }

    /// Projects `count` interleaved x, y pairs in place.
    package func transform(_ xy: UnsafeMutablePointer<Double>, count: Int) {
        switch method {
        case let .formula(formula):
            for i in 0..<count { (xy[2 * i], xy[2 * i + 1]) = formula(xy[2 * i], xy[2 * i + 1]) }
        case let .proj(operation):
            operation.transform(xy, count: count)
        }
    }
}
