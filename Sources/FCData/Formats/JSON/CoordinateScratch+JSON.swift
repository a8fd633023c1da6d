// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Reading JSON coordinate arrays (GeoJSON `coordinates`, Esri JSON `paths`,
/// `rings`, `points`) into the scratch: the JSON side of `CoordinateScratch`,
/// which itself knows only vertices, lists and groups.
extension CoordinateScratch {
    /// Reads a nested coordinate array (`[x,y]`, `[[x,y],…]`, … up to 4 levels).
    /// Extra ordinates (z, m) are skipped.
    package mutating func read(from scanner: inout JSONScanner) throws(FeatureCacheError) {
        reset()
        depth = try measureDepth(scanner)
        switch depth {
        case 1: try readPosition(&scanner)
        case 2: try readList(&scanner)
        case 3: try readGroup(&scanner)
        case 4:
            try scanner.beginArray()
            while try scanner.nextElement() { try readGroup(&scanner) }
        default: throw scanner.error("coordinates nested \(depth) levels deep")
        }
    }

    /// The nesting depth of the array ahead: `[` count before the first number
    /// (an empty array counts as a list of whatever its level holds).
    private func measureDepth(_ scanner: JSONScanner) throws(FeatureCacheError) -> Int {
        var probe = scanner
        var depth = 0
        while probe.peek() == UInt8(ascii: "[") {
            depth += 1
            try probe.beginArray()
            if probe.peek() == UInt8(ascii: "]") { return max(depth, 2) }
        }
        guard depth > 0 else { throw scanner.error("expected a coordinate array") }
        return depth
    }

    @inline(__always)
    package mutating func readPosition(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        try scanner.beginArray()
        guard try scanner.nextElement() else { throw scanner.error("a position needs at least 2 numbers") }
        let x = try scanner.readDouble()
        guard try scanner.nextElement() else { throw scanner.error("a position needs at least 2 numbers") }
        let y = try scanner.readDouble()
        var more = (Double.nan, Double.nan)
        var count = 0
        while try scanner.nextElement() {
            let value: Double
            if nullOrdinatesAfterXY, try scanner.readNull() { value = .nan } else { value = try scanner.readNumber().double }
            if count == 0 { more.0 = value } else if count == 1 { more.1 = value }
            count += 1
        }
        appendVertex(x, y, more: more, count: count)
    }

    package mutating func readList(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        try scanner.beginArray()
        while try scanner.nextElement() { try readPosition(&scanner) }
        listEnds.append(pointCount)
    }

    package mutating func readGroup(_ scanner: inout JSONScanner) throws(FeatureCacheError) {
        try scanner.beginArray()
        while try scanner.nextElement() { try readList(&scanner) }
        groupEnds.append(listEnds.count)
    }
}
