// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension FeatureTemplate {
    /// The template of the GeoJSON Feature in `range` of the scanner's
    /// document, just read member by member into `builder` (so its columns
    /// exist); nil for a feature a template cannot describe: a
    /// GeometryCollection, a member listed twice, members other than `type`
    /// and `coordinates` in the geometry.
    package static func learnGeoJSON(from scanner: JSONScanner, range: Range<Int>, builder: BatchBuilder) -> FeatureTemplate? {
        Recorder.record(scanner, range: range) { (recorder) throws(FeatureCacheError) in
            if recorder.probe.keyEquals("type") {
                _ = try recorder.probe.readString()  // "Feature": part of the run
            } else if recorder.probe.keyEquals("id") {
                try recorder.value(.id, depth: 1)
            } else if recorder.probe.keyEquals("geometry") {
                var type: WKBType? = nil, sawCoordinates = false
                let described = try recorder.geometry(
                    { (recorder) throws(FeatureCacheError) in
                        if recorder.probe.keyEquals("type") {
                            guard let index = try recorder.probe.readString(matching: GeoJSONReader.geometryTypeNames),
                                GeoJSONReader.geometryTypes[index] != .geometryCollection
                            else { return false }
                            type = GeoJSONReader.geometryTypes[index]
                        } else if recorder.probe.keyEquals("coordinates") {
                            sawCoordinates = true
                            try recorder.value(.coordinates, depth: 2)
                        } else {
                            return false
                        }
                        return true
                    }, type: { type })
                return described && type != nil && sawCoordinates  // (member by member failed otherwise)
            } else if recorder.probe.keyEquals("properties") {
                return try recorder.values(builder, skipsUnknown: false)
            } else {
                try recorder.value(.skip, depth: 1)  // a foreign member
            }
            return true
        }
    }
}
