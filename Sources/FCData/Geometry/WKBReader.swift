// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Reads WKB (ISO and EWKB-free OGC forms, either byte order; Z/M values skipped)
/// into a `Geometry`, checking every length against the input.
public struct WKBReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var depth = 0

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) -> Geometry {
        var reader = WKBReader(bytes: bytes)
        let geometry = try reader.geometry()
        guard reader.offset == bytes.count else {
            throw FeatureCacheError(.invalidArgument, "WKB: \(bytes.count - reader.offset) bytes left after the geometry")
        }
        return geometry
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private func fail(_ what: String) -> FeatureCacheError {
        FeatureCacheError(.invalidArgument, "WKB: \(what) at byte \(offset)")
    }

    private mutating func geometry() throws(FeatureCacheError) -> Geometry {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { throw fail("geometry collections nested too deeply") }
        guard offset + 5 <= bytes.count else { throw fail("truncated geometry header") }
        let order = bytes[offset]
        guard order <= 1 else { throw fail("byte order must be 0 or 1, not \(order)") }
        let little = order == 1
        offset += 1
        let code = try uint32(little)
        // ISO: 1000s = Z, 2000s = M, 3000s = ZM; OGC/EWKB high bits for Z and M.
        var dimensions = 2
        var base = code & 0x0FFF_FFFF
        if code & 0x8000_0000 != 0 { dimensions += 1 }
        if code & 0x4000_0000 != 0 { dimensions += 1 }
        if code & 0x2000_0000 != 0 { throw fail("EWKB with an embedded SRID is not supported") }
        switch base / 1000 {
        case 1, 2: dimensions += 1
        case 3: dimensions += 2
        default: break
        }
        base %= 1000
        switch base {
        case 1:
            let p = try point(little, dimensions)
            return .point(x: p.x, y: p.y)
        case 2: return .lineString(try points(little, dimensions))
        case 3: return .polygon(try rings(little, dimensions))
        case 4:
            return .multiPoint(
                try members(little).map { member throws(FeatureCacheError) in
                    guard case let .point(x, y) = member else { throw fail("a multipoint member is not a point") }
                    return Geometry.XY(x, y)
                })
        case 5:
            return .multiLineString(
                try members(little).map { member throws(FeatureCacheError) in
                    guard case let .lineString(points) = member else { throw fail("a multilinestring member is not a linestring") }
                    return points
                })
        case 6:
            return .multiPolygon(
                try members(little).map { member throws(FeatureCacheError) in
                    guard case let .polygon(rings) = member else { throw fail("a multipolygon member is not a polygon") }
                    return rings
                })
        case 7: return .collection(try members(little))
        default: throw fail("unsupported geometry type \(code)")
        }
    }

    private mutating func uint32(_ little: Bool) throws(FeatureCacheError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("truncated") }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }

    private mutating func count(_ little: Bool, itemBytes: Int) throws(FeatureCacheError) -> Int {
        let count = Int(try uint32(little))
        guard count <= (bytes.count - offset) / max(itemBytes, 1) else { throw fail("count \(count) exceeds the input") }
        return count
    }

    private mutating func double(_ little: Bool) throws(FeatureCacheError) -> Double {
        guard offset + 8 <= bytes.count else { throw fail("truncated") }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return Double(bitPattern: little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw))
    }

    private mutating func point(_ little: Bool, _ dimensions: Int) throws(FeatureCacheError) -> Geometry.XY {
        let x = try double(little), y = try double(little)
        for _ in 2..<dimensions { _ = try double(little) }
        guard (x.isFinite && y.isFinite) || (x.isNaN && y.isNaN) else { throw fail("a coordinate is not finite") }
        return Geometry.XY(x, y)
    }

    private mutating func points(_ little: Bool, _ dimensions: Int) throws(FeatureCacheError) -> [Geometry.XY] {
        let n = try count(little, itemBytes: 8 * dimensions)
        var result: [Geometry.XY] = []
        result.reserveCapacity(n)
        for _ in 0..<n { result.append(try point(little, dimensions)) }
        return result
    }

    private mutating func rings(_ little: Bool, _ dimensions: Int) throws(FeatureCacheError) -> [[Geometry.XY]] {
        let n = try count(little, itemBytes: 4)
        var result: [[Geometry.XY]] = []
        for _ in 0..<n {
            let ring = try points(little, dimensions)
            guard ring.count >= 4, ring.first == ring.last else { throw fail("a polygon ring must be closed and have at least 4 points") }
            result.append(ring)
        }
        return result
    }

    private mutating func members(_ little: Bool) throws(FeatureCacheError) -> [Geometry] {
        let n = try count(little, itemBytes: 5)
        var result: [Geometry] = []
        for _ in 0..<n { result.append(try geometry()) }
        return result
    }
}
