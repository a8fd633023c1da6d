// SPDX-License-Identifier: Apache-2.0
/// The bytes features of one GeoJSON document share, learned from one feature
/// and checked on the next: a server writes every feature the same way (the
/// same members in the same order, the same spacing), so between the values
/// that change lie runs of bytes that do not: `{"type": "Feature", "id": `,
/// `, "geometry": {"type": "Point", "coordinates": `, `, "DBH": `…
///
/// A feature that repeats every run byte for byte has the same structure and
/// the same keys as the feature the template came from, so only its values
/// need reading: each run is compared eight bytes at a time instead of being
/// scanned and its keys looked up. Values are read by the same code as member
/// by member, so they are held to the same rules. A feature that differs
/// anywhere (another key order, a foreign member, a 3D point where the template
/// has two values: that is a different run) is read member by member, and the
/// template is learned again from it.
struct FeatureTemplate {
    /// What a template reads between two runs.
    enum Slot {
        /// The feature's `id`.
        case id
        /// A geometry's `coordinates`; the geometry's type is in the runs.
        case coordinates
        /// Nothing to read: the geometry object just closed, and its geometry
        /// goes into the row here, where reading member by member puts it (so
        /// an error in it comes first and names the same byte).
        case geometryEnd
        /// A property's value, into the column at this index.
        case property(Int)
        /// A foreign member's value, skipped.
        case skip
    }

    /// A run of bytes, then the value after it.
    struct Step {
        /// Where the run is in the document the template was learned from, and its length.
        let start: Int
        let count: Int
        let slot: Slot
        /// Containers the value lies in, counting the feature's own object.
        let depth: Int
    }

    private(set) var steps: [Step] = []
    /// The run that closes the feature.
    private(set) var close = (start: 0, count: 0)
    /// The geometry type, nil when the features have none (or a null one:
    /// then the row gets no geometry once the feature has matched).
    private(set) var geometryType: WKBType?
    /// How many columns the properties fill.
    private(set) var propertyCount = 0

    /// The template of the feature in `range` of the scanner's document, just
    /// read member by member into `builder` (so its columns exist); nil for a
    /// feature a template cannot describe: a GeometryCollection, a member
    /// listed twice, members other than `type` and `coordinates` in the geometry.
    static func learn(from scanner: JSONScanner, range: Range<Int>, builder: BatchBuilder,
                      geometryTypes: [StaticString], wkbTypes: [WKBType]) -> FeatureTemplate? {
        var probe = scanner
        probe.rewind(to: range.lowerBound)
        var template = FeatureTemplate()
        var runStart = range.lowerBound
        /// Ends the current run here, with the slot that reads what follows.
        /// A run ends just after a member's `:` (or the geometry's `}`), where
        /// reading member by member stands, so a value's reader starts where
        /// it does there, and an error in it names the same byte.
        func slot(_ slot: Slot, depth: Int) {
            template.steps.append(Step(start: runStart, count: probe.offset - runStart, slot: slot, depth: depth))
        }
        do throws(FeatureCacheError) {
            var seen = Set<String>()
            try probe.beginObject()
            while try probe.nextKey() {
                let key = probe.key
                guard seen.insert(key).inserted else { return nil }
                switch key {
                case "type":
                    _ = try probe.readString()  // "Feature": part of the run
                case "id":
                    slot(.id, depth: 1)
                    try probe.skipValue()
                    runStart = probe.offset
                case "geometry":
                    if try probe.readNull() { continue }
                    try probe.beginObject()
                    var sawType = false, sawCoordinates = false
                    while try probe.nextKey() {
                        if probe.keyEquals("type"), !sawType {
                            sawType = true
                            guard let index = try probe.readString(matching: geometryTypes),
                                  wkbTypes[index] != .geometryCollection else { return nil }
                            template.geometryType = wkbTypes[index]
                        } else if probe.keyEquals("coordinates"), !sawCoordinates {
                            sawCoordinates = true
                            slot(.coordinates, depth: 2)
                            try probe.skipValue()
                            runStart = probe.offset
                        } else {
                            return nil
                        }
                    }
                    guard sawType, sawCoordinates else { return nil }
                    slot(.geometryEnd, depth: 0)
                    runStart = probe.offset
                case "properties":
                    if try probe.readNull() { continue }
                    try probe.beginObject()
                    var columns = Set<Int>()
                    while try probe.nextKey() {
                        guard let column = builder.column(forKeyOf: probe, hint: template.propertyCount),
                              columns.insert(column).inserted else { return nil }
                        slot(.property(column), depth: 2)
                        try probe.skipValue()
                        runStart = probe.offset
                        template.propertyCount += 1
                    }
                default:
                    slot(.skip, depth: 1)
                    try probe.skipValue()
                    runStart = probe.offset
                }
            }
        } catch {
            return nil  // read member by member just before: cannot happen
        }
        guard probe.offset == range.upperBound else { return nil }
        template.close = (runStart, probe.offset - runStart)
        return template
    }
}
