// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What the geometries of a batch have in common: their type (`.unknown` when
/// they mix families), whether any has Z or M, and their bounding box.
package struct GeometrySummary {
    package var type: GeometryType = .none
    package var hasZ = false, hasM = false
    package var box: BoundingBox?

    /// - Parameter rows: how many rows to read from the first (a sample); nil: all.
    package init(_ geometry: GeometryColumn, rows: Int? = nil) {
        var bounds = BoundingBox()
        for row in 0..<min(rows ?? geometry.count, geometry.count) {
            let wkb = geometry.wkb(row)
            guard wkb.count >= 5 else { continue }
            let code = UInt32(littleEndian: wkb.loadUnaligned(fromByteOffset: 1, as: UInt32.self))
            let layout = VertexLayout(wkbType: code)
            hasZ = hasZ || layout.hasZ
            hasM = hasM || layout.hasM
            let rowType: GeometryType
            switch code % 1000 {
            case 1: rowType = .point
            case 4: rowType = .multipoint
            case 2, 5: rowType = .polyline
            case 3, 6: rowType = .polygon
            default: rowType = .unknown
            }
            type = type == .none || type == rowType ? rowType : .unknown
            geometry.addBox(of: row, to: &bounds)
        }
        box = bounds.isEmpty ? nil : bounds
    }
}
