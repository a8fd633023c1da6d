// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices

/// The fields of an Esri JSON FeatureSet that lists none, from the values its
/// features' `attributes` hold, as GDAL types an undeclared layer: a column of
/// whole numbers only is an integer (64-bit when one does not fit 32), any
/// fraction makes it a double, any text makes it a string; a column with only
/// nulls is a string. The object-id field (named by `objectIdFieldName`, else
/// `OBJECTID`/`FID` when whole numbers) is typed as one.
enum EsriAttributeTypes {
    private enum Kind: Int, Comparable {
        case null, integer, bigInteger, double, string
        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// At most this many attribute names are kept (a hostile document could list millions).
    static let maxFields = 10_000

    static func infer(_ bytes: UnsafeRawBufferPointer, objectIdField: String?) throws(FeatureCacheError) -> [FieldInfo] {
        var names: [String] = []
        var kinds: [String: Kind] = [:]
        var scanner = JSONScanner(bytes)
        try scanner.beginObject()
        while try scanner.nextKey() {
            guard scanner.keyEquals("features"), scanner.peek() == UInt8(ascii: "[") else {
                try scanner.skipValue()
                continue
            }
            try scanner.beginArray()
            while try scanner.nextElement() {
                guard scanner.peek() == UInt8(ascii: "{") else {
                    try scanner.skipValue()
                    continue
                }
                try scanner.beginObject()
                while try scanner.nextKey() {
                    guard scanner.keyEquals("attributes"), scanner.peek() == UInt8(ascii: "{") else {
                        try scanner.skipValue()
                        continue
                    }
                    try scanner.beginObject()
                    while try scanner.nextKey() {
                        let name = scanner.key
                        let kind = try readKind(&scanner)
                        if let known = kinds[name] {
                            kinds[name] = max(known, kind)
                        } else if names.count < maxFields {
                            names.append(name)
                            kinds[name] = kind
                        }
                    }
                }
            }
        }
        let oid = (objectIdField ?? names.first { ["objectid", "fid"].contains($0.lowercased()) })?.lowercased()
        return names.map { name in
            let kind = kinds[name] ?? .null
            if name.lowercased() == oid, kind == .integer || kind == .bigInteger {
                return FieldInfo(name: name, type: .oid)
            }
            switch kind {
            case .integer: return FieldInfo(name: name, type: .integer)
            case .bigInteger: return FieldInfo(name: name, type: .bigInteger)
            case .double: return FieldInfo(name: name, type: .double)
            case .null, .string: return FieldInfo(name: name, type: .string)
            }
        }
    }

    private static func readKind(_ scanner: inout JSONScanner) throws(FeatureCacheError) -> Kind {
        switch scanner.peekKind() {
        case .null?:
            _ = try scanner.readNull()
            return .null
        case .number?:
            guard let value = try scanner.readNumber().integer else { return .double }
            return Int64(Int32(truncatingIfNeeded: value)) == value ? .integer : .bigInteger
        case .string?:
            try scanner.skipValue()
            return .string
        default:
            try scanner.skipValue()
            return .string
        }
    }
}
