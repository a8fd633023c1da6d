// SPDX-License-Identifier: Apache-2.0
extension FeatureTemplate {
    /// The template of the Esri JSON feature in `range` of the scanner's
    /// document, just read member by member into `builder`; nil for a feature
    /// a template cannot describe (a member listed twice, two attributes for
    /// one column). Attributes the schema lacks and geometry members the
    /// reader ignores (`spatialReference`, `hasZ`…) are skipped, as there.
    static func learnEsriJSON(from scanner: JSONScanner, range: Range<Int>, builder: BatchBuilder) -> FeatureTemplate? {
        var recorder = Recorder(scanner, at: range.lowerBound)
        do throws(FeatureCacheError) {
            try recorder.probe.beginObject()
            while try recorder.probe.nextKey() {
                guard recorder.isFirst("feature") else { return nil }
                if recorder.probe.keyEquals("attributes") {
                    if try recorder.probe.readNull() { continue }
                    try recorder.probe.beginObject()
                    var columns = Set<Int>()
                    while try recorder.probe.nextKey() {
                        guard recorder.isFirst("attributes") else { return nil }
                        guard let column = builder.column(forKeyOf: recorder.probe, hint: recorder.template.propertyCount) else {
                            try recorder.skip(depth: 2)
                            continue
                        }
                        // A name the schema lists twice: the copy a value goes to depends on the row.
                        guard builder.hasUniqueName(column), columns.insert(column).inserted else { return nil }
                        recorder.slot(.property(column), depth: 2)
                        try recorder.probe.skipValue()
                        recorder.restart()
                    }
                } else if recorder.probe.keyEquals("geometry") {
                    if try recorder.probe.readNull() { continue }
                    try recorder.probe.beginObject()
                    var type: WKBType? = nil
                    while try recorder.probe.nextKey() {
                        guard recorder.isFirst("geometry") else { return nil }
                        switch EsriJSONReader.geometryMember(recorder.probe) {
                        case let .ordinate(index)?:
                            if index == 0 { type = .point }
                            recorder.slot(.ordinate(index), depth: 2)
                            _ = try EsriJSONReader.coordinate(&recorder.probe)
                            recorder.restart()
                        case let .coordinates(kind)?:
                            type = kind
                            recorder.slot(.coordinates, depth: 2)
                            try recorder.probe.skipValue()
                            recorder.restart()
                        case nil:
                            try recorder.skip(depth: 2)
                        }
                    }
                    recorder.setGeometry(type)
                    recorder.slot(.geometryEnd, depth: 0)
                    recorder.restart()
                } else {
                    try recorder.skip(depth: 1)
                }
            }
        } catch {
            return nil  // read member by member just before: cannot happen
        }
        return recorder.finish(at: range.upperBound)
    }
}
