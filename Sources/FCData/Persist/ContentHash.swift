// SPDX-License-Identifier: Apache-2.0

/// A 64-bit checksum of a file's bytes, to tell a corrupted or torn file from
/// a good one. It reads 32 bytes a step in four independent lanes (multiply,
/// rotate, mix: the structure of the xxHash family, written here), so checking
/// a 60 MB cache costs a few milliseconds, not the tens a byte-wise CRC would.
/// Not a cryptographic hash: it guards against accidents, not attackers.
package enum ContentHash {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    @inline(__always)
    private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        var lane = lane &+ input &* prime2
        lane = (lane << 31) | (lane >> 33)
        return lane &* prime1
    }

    /// The hash of a text's UTF-8 bytes (names a cache folder, a populate's signature).
    package static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    package static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return seed ^ prime3 }
        var a = seed &+ prime1 &+ prime2, b = seed &+ prime2, c = seed, d = seed &- prime1
        var offset = 0
        while offset + 32 <= count {
            a = round(a, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            b = round(b, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            c = round(c, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            d = round(d, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = ((a << 1) | (a >> 63)) &+ ((b << 7) | (b >> 57)) &+ ((c << 12) | (c >> 52)) &+ ((d << 18) | (d >> 46))
        hash = hash &+ UInt64(count)
        while offset < count {
            hash ^= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) &* prime3
            hash = ((hash << 11) | (hash >> 53)) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash = hash &* prime2
        hash ^= hash >> 29
        hash = hash &* prime3
        hash ^= hash >> 32
        return hash
    }
}
