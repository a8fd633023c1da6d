// SPDX-License-Identifier: Apache-2.0
extension FeatureTemplate {
    /// The template of the GeoJSON Feature in `range` of the scanner's
    /// document, just read member by member into `builder` (so its columns
    /// exist); nil for a feature a template cannot describe: a
    /// GeometryCollection, a member listed twice, members other than `type`
    /// and `coordinates` in the geometry.
    static func learnGeoJSON(from scanner: JSONScanner, range: Range<Int>, builder: BatchBuilder,
                             geometryTypes: [StaticString], wkbTypes: [WKBType]) -> FeatureTemplate? {
        var recorder = Recorder(scanner, at: range.lowerBound)
        do throws(FeatureCacheError) {
            try recorder.probe.beginObject()
            while try recorder.probe.nextKey() {
                guard recorder.isFirst("feature") else { return nil }
                if recorder.probe.keyEquals("type") {
                    _ = try recorder.probe.readString()  // "Feature": part of the run
                } else if recorder.probe.keyEquals("id") {
                    recorder.slot(.id, depth: 1)
                    try recorder.probe.skipValue()
                    recorder.restart()
                } else if recorder.probe.keyEquals("geometry") {
                    if try recorder.probe.readNull() { continue }
                    try recorder.probe.beginObject()
                    var type: WKBType? = nil, sawCoordinates = false
                    while try recorder.probe.nextKey() {
                        guard recorder.isFirst("geometry") else { return nil }
                        if recorder.probe.keyEquals("type") {
                            guard let index = try recorder.probe.readString(matching: geometryTypes),
                                  wkbTypes[index] != .geometryCollection else { return nil }
                            type = wkbTypes[index]
                        } else if recorder.probe.keyEquals("coordinates") {
                            sawCoordinates = true
                            recorder.slot(.coordinates, depth: 2)
                            try recorder.probe.skipValue()
                            recorder.restart()
                        } else {
                            return nil
                        }
                    }
                    guard let type, sawCoordinates else { return nil }
                    recorder.setGeometry(type)
                    recorder.slot(.geometryEnd, depth: 0)
                    recorder.restart()
                } else if recorder.probe.keyEquals("properties") {
                    if try recorder.probe.readNull() { continue }
                    try recorder.probe.beginObject()
                    var columns = Set<Int>()
                    while try recorder.probe.nextKey() {
                        guard let column = builder.column(forKeyOf: recorder.probe, hint: recorder.template.propertyCount),
                              builder.hasUniqueName(column), columns.insert(column).inserted else { return nil }
                        recorder.slot(.property(column), depth: 2)
                        try recorder.probe.skipValue()
                        recorder.restart()
                    }
                } else {
                    try recorder.skip(depth: 1)  // a foreign member
                }
            }
        } catch {
            return nil  // read member by member just before: cannot happen
        }
        return recorder.finish(at: range.upperBound)
    }
}
