// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A packed, static R-tree (the Flatbush layout): items in the Hilbert order
/// of their box centres (`hilbertOrder`), grouped 16 to a node, level by level
/// up to one root. Built once (over a whole store's rows: `StoreSpatialIndex`);
/// a search visits only nodes whose boxes meet the query. Item boxes are not
/// copied: they are read back through the `box` function given. The tree
/// speaks of positions 0..<count; the caller keeps its items in that order.
public struct HilbertRTree: Sendable {
    package static let nodeSize = 16

    /// Tree positions (items, each with a box).
    package let count: Int
    /// xmin, ymin, xmax, ymax of every node, level 0 (over the positions) first, root last.
    package let nodeBoxes: [Double]
    /// Index of each level's first node in `nodeBoxes` / 4, plus the end.
    package let levelStarts: [Int]

    /// A tree over positions 0..<count, in the order given (spatially
    /// coherent, for a useful tree); no box may be NaN.
    package init(count: Int, box itemBox: (Int) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double)) {
        self.count = count
        guard count > 0 else {
            nodeBoxes = []; levelStarts = [0]
            return
        }

        var boxes: [Double] = []
        var starts = [0]
        // Level 0: one node per 16 rows.
        var index = 0
        while index < count {
            var box = BoundingBox()
            for position in index..<min(index + Self.nodeSize, count) {
                let b = itemBox(position)
                box.add(b.xmin, b.ymin)
                box.add(b.xmax, b.ymax)
            }
            boxes += [box.xmin, box.ymin, box.xmax, box.ymax]
            index += Self.nodeSize
        }
        starts.append(boxes.count / 4)
        // Upper levels: one node per 16 nodes of the level below, until one root.
        while starts[starts.count - 1] - starts[starts.count - 2] > 1 {
            let lower = starts[starts.count - 2]..<starts[starts.count - 1]
            var node = lower.lowerBound
            while node < lower.upperBound {
                var box = BoundingBox()
                for child in node..<min(node + Self.nodeSize, lower.upperBound) {
                    box.add(boxes[4 * child], boxes[4 * child + 1])
                    box.add(boxes[4 * child + 2], boxes[4 * child + 3])
                }
                boxes += [box.xmin, box.ymin, box.xmax, box.ymax]
                node += Self.nodeSize
            }
            starts.append(boxes.count / 4)
        }
        nodeBoxes = boxes
        levelStarts = starts
    }

    /// Items 0..<count whose box is not NaN, in the Hilbert order of their box
    /// centres on a 65536 × 65536 grid over their extent (ties in item order).
    /// The tree's order, and the order a large batch stores its rows in
    /// (SpatialRowOrder.swift), so that the two agree.
    package static func hilbertOrder(count: Int, box itemBox: (Int) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double)) -> [UInt32]
    {
        var extent = BoundingBox()
        var located = 0
        for item in 0..<count {
            let box = itemBox(item)
            guard !box.xmin.isNaN else { continue }
            extent.add(box.xmin, box.ymin)
            extent.add(box.xmax, box.ymax)
            located += 1
        }
        guard located > 0 else { return [] }
        // Halves throughout: (min + max) and (xmax - xmin) overflow to infinity for
        // coordinates near ±Double.greatestFiniteMagnitude, halves never do.
        let halfWidth = extent.xmax / 2 - extent.xmin / 2
        let halfHeight = extent.ymax / 2 - extent.ymin / 2
        var keyed: [UInt64] = []
        keyed.reserveCapacity(located)
        for item in 0..<count {
            let box = itemBox(item)
            guard !box.xmin.isNaN else { continue }
            let cx = gridCell((box.xmin / 4 + box.xmax / 4 - extent.xmin / 2) / halfWidth)
            let cy = gridCell((box.ymin / 4 + box.ymax / 4 - extent.ymin / 2) / halfHeight)
            keyed.append(UInt64(hilbert(cx, cy)) << 32 | UInt64(item))
        }
        // By key only: items come in order, and the sort keeps that order for ties.
        RadixSort.sort(&keyed, byBitsFrom: 32)
        return keyed.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// Calls `visit` with every tree position whose box (read through
    /// `positionBox`) meets the envelope (borders included), in ascending order.
    package func search(
        _ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double,
        box positionBox: (Int) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double), _ visit: (Int) -> Void
    ) {
        guard count > 0 else { return }
        let levels = levelStarts.count - 1
        // (level, node) pairs still to look at, root first.
        var stack: [(Int, Int)] = [(levels - 1, levelStarts[levels - 1])]
        while let (level, node) = stack.popLast() {
            guard nodeBoxes[4 * node] <= xmax, nodeBoxes[4 * node + 1] <= ymax,
                nodeBoxes[4 * node + 2] >= xmin, nodeBoxes[4 * node + 3] >= ymin
            else { continue }
            let slot = node - levelStarts[level]
            if level == 0 {
                for position in slot * Self.nodeSize..<min((slot + 1) * Self.nodeSize, count) {
                    let b = positionBox(position)
                    if b.xmin <= xmax, b.ymin <= ymax, b.xmax >= xmin, b.ymax >= ymin { visit(position) }
                }
            } else {
                let below = levelStarts[level - 1]
                let first = below + slot * Self.nodeSize
                // Pushed last to first, so positions are visited in ascending order.
                for child in (first..<min(first + Self.nodeSize, levelStarts[level])).reversed() { stack.append((level - 1, child)) }
            }
        }
    }

    /// A position 0…1 along the extent as a cell 0…65535. Anything else (NaN
    /// from a zero-width extent, rounding just past an end) lands in range.
    @inline(__always)
    package static func gridCell(_ t: Double) -> UInt32 {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 65535 }
        return UInt32(t * 65535)
    }

    public var byteSize: Int { nodeBoxes.count * 8 }
}

/// The Hilbert curve index of (x, y) on a 2^16 grid (Warren, Hacker's Delight 16-2).
private func hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
    var a = x ^ y
    var b = 0xFFFF ^ a
    var c = 0xFFFF ^ (x | y)
    var d = x & (y ^ 0xFFFF)
    var A = a | (b >> 1), B = (a >> 1) ^ a
    var C = ((c >> 1) ^ (b & (d >> 1))) ^ c
    var D = ((a & (c >> 1)) ^ (d >> 1)) ^ d
    a = A; b = B; c = C; d = D
    A = (a & (a >> 2)) ^ (b & (b >> 2)); B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
    C ^= (a & (c >> 2)) ^ (b & (d >> 2)); D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))
    a = A; b = B; c = C; d = D
    A = (a & (a >> 4)) ^ (b & (b >> 4)); B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
    C ^= (a & (c >> 4)) ^ (b & (d >> 4)); D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))
    a = A; b = B; c = C; d = D
    C ^= (a & (c >> 8)) ^ (b & (d >> 8)); D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))
    a = C ^ (C >> 1); b = D ^ (D >> 1)
    var i0 = x ^ y, i1 = b | (0xFFFF ^ (i0 | a))
    i0 = (i0 | (i0 << 8)) & 0x00FF00FF; i0 = (i0 | (i0 << 4)) & 0x0F0F0F0F
    i0 = (i0 | (i0 << 2)) & 0x33333333; i0 = (i0 | (i0 << 1)) & 0x55555555
    i1 = (i1 | (i1 << 8)) & 0x00FF00FF; i1 = (i1 | (i1 << 4)) & 0x0F0F0F0F
    i1 = (i1 | (i1 << 2)) & 0x33333333; i1 = (i1 | (i1 << 1)) & 0x55555555
    return (i1 << 1) | i0
}
