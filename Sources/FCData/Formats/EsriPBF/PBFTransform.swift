// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A `FeatureResult`'s `Transform`: integer coordinates to world coordinates,
/// x = translate + q × scale, and y the same for a lower-left origin or
/// translate − q × scale for an upper-left one; z and m like x.
package struct PBFTransform {
    package var upperLeft = true
    package var xAxis = PBFAxis(), yAxis = PBFAxis(), zAxis = PBFAxis(), mAxis = PBFAxis()

    @inline(__always) package func x(_ q: Int64) -> Double { xAxis.plus(q) }
    @inline(__always) package func y(_ q: Int64) -> Double { upperLeft ? yAxis.minus(q) : yAxis.plus(q) }
    @inline(__always) package func z(_ q: Int64) -> Double { zAxis.plus(q) }
    @inline(__always) package func m(_ q: Int64) -> Double { mAxis.plus(q) }

    /// The identity: x = q, y = −q (upper left).
    package init() {}

    package init(_ message: inout ProtobufReader) throws(FeatureCacheError) {
        while let (number, type) = try message.nextField() {
            switch number {
            case 1: try message.expect(.varint, type, field: "quantizeOriginPostion"); upperLeft = try message.readVarint() == 0
            case 2, 3:
                try message.expect(.lengthDelimited, type, field: number == 2 ? "scale" : "translate")
                var pair = try message.readMessage()
                while let (axis, axisType) = try pair.nextField() {
                    guard (1...4).contains(axis) else { try pair.skip(axisType); continue }
                    try pair.expect(.fixed64, axisType, field: number == 2 ? "a scale" : "a translation")
                    let value = try pair.readDouble()
                    // Fields 1…4 of Scale and Translate: x, y, m, z.
                    switch (number, axis) {
                    case (2, 1): xAxis.scale = value
                    case (2, 2): yAxis.scale = value
                    case (2, 3): mAxis.scale = value
                    case (2, _): zAxis.scale = value
                    case (_, 1): xAxis.translate = value
                    case (_, 2): yAxis.translate = value
                    case (_, 3): mAxis.translate = value
                    default: zAxis.translate = value
                    }
                }
            default: try message.skip(type)
            }
        }
        xAxis.findDecimalGrid()
        yAxis.findDecimalGrid()
        zAxis.findDecimalGrid()
        mAxis.findDecimalGrid()
    }
}

/// One axis of a transform.
///
/// Without `quantizationParameters` a server sends its spatial reference's
/// grid: scale 1e-9 and translate -400 for degrees, 1e-4 and the false
/// origin (-20037700, -30241100) for Web Mercator metres (the recorded
/// responses in Fixtures/arcgis-pbf). A geodatabase stores coordinates on that
/// grid, so the value meant is the decimal (q + translate / scale) × 10^-k
/// exactly. On such an axis the integer is divided by 10^k: one correctly
/// rounded division of exact doubles gives the double nearest that decimal,
/// the one its digits in a JSON answer parse to. translate + q × scale rounds
/// twice and lands an ulp or two off (-9420644.991799999 for -9420644.9918).
package struct PBFAxis {
    package var scale = 1.0
    package var translate = 0.0
    /// 10^k when scale is the double nearest 10^-k and translate a whole
    /// number of its steps; 0 when the axis is not such a grid.
    private var divisor = 0.0
    /// translate / scale, an integer, when `divisor` is set.
    private var translateSteps: Int64 = 0
    /// The smallest q for which translateSteps + q, and translateSteps − q, is
    /// an integer a double holds exactly (±2^53); the largest is 2^54 more.
    private var lowestPlus: Int64 = 0, lowestMinus: Int64 = 0
    private static let exactSpan: UInt64 = 1 << 54

    /// Sets `divisor` when scale and translate are a decimal grid.
    package mutating func findDecimalGrid() {
        divisor = 0
        guard scale > 0, scale <= 1, translate.isFinite else { return }
        for k in exactPowersOfTen.indices where 1 / exactPowersOfTen[k] == scale {
            let steps = (translate * exactPowersOfTen[k]).rounded()
            guard steps.magnitude <= 0x1p53, Double(Int64(steps)) / exactPowersOfTen[k] == translate else { return }
            translateSteps = Int64(steps)
            lowestPlus = -(1 << 53) - translateSteps
            lowestMinus = translateSteps - (1 << 53)
            divisor = exactPowersOfTen[k]
            return
        }
    }

    @inline(__always) package func plus(_ q: Int64) -> Double {
        if divisor != 0, UInt64(bitPattern: q &- lowestPlus) <= Self.exactSpan { return Double(translateSteps &+ q) / divisor }
        return translate + Double(q) * scale
    }

    @inline(__always) package func minus(_ q: Int64) -> Double {
        if divisor != 0, UInt64(bitPattern: q &- lowestMinus) <= Self.exactSpan { return Double(translateSteps &- q) / divisor }
        return translate - Double(q) * scale
    }
}
