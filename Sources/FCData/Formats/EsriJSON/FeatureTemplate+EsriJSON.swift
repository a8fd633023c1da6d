// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension FeatureTemplate {
    /// The template of the Esri JSON feature in `range` of the scanner's
    /// document, just read member by member into `builder`; nil for a feature
    /// a template cannot describe (a member listed twice, a name the schema
    /// lists twice). Attributes the schema lacks and geometry members the
    /// reader ignores (`spatialReference`, `hasZ`…) are skipped, as there.
    package static func learnEsriJSON(from scanner: JSONScanner, range: Range<Int>, builder: BatchBuilder) -> FeatureTemplate? {
        Recorder.record(scanner, range: range) { (recorder) throws(FeatureCacheError) in
            if recorder.probe.keyEquals("attributes") {
                return try recorder.values(builder, skipsUnknown: true)
            } else if recorder.probe.keyEquals("geometry") {
                var type: WKBType? = nil  // the last of x, points, paths, rings decides, as there
                return try recorder.geometry(
                    { (recorder) throws(FeatureCacheError) in
                        switch EsriJSONReader.geometryMember(recorder.probe) {
                        case let .ordinate(index)?:
                            if index == 0 { type = .point }
                            recorder.slot(.ordinate(index), depth: 2)
                            _ = try EsriJSONReader.coordinate(&recorder.probe)  // a bare NaN too, which skipValue refuses
                            recorder.restartRun()
                        case let .coordinates(kind)?:
                            type = kind
                            try recorder.value(.coordinates, depth: 2)
                        case nil:
                            try recorder.value(.skip, depth: 2)
                        }
                        return true
                    }, type: { type })
            } else {
                try recorder.value(.skip, depth: 1)
            }
            return true
        }
    }
}
