// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The bytes the features of one JSON document share, learned from one feature
/// and checked on the next: a server writes every feature the same way (the
/// same members in the same order, the same spacing), so between the values
/// that change lie runs of bytes that do not: `{"type": "Feature", "id":`,
/// `, "geometry": {"type": "Point", "coordinates":`, `, "DBH":`…
///
/// A feature that repeats every run byte for byte has the same structure and
/// the same keys as the feature the template came from, so only its values
/// need reading: each run is compared eight bytes at a time instead of being
/// scanned and its keys looked up. Values are read by the same code as member
/// by member, starting where that reading starts (a run ends just after a
/// member's `:`), so they are held to the same rules and fail with the same
/// message at the same byte. A feature that differs anywhere (another key
/// order, a foreign member, a 3D point where the template has two values)
/// takes back what went into its row and is read member by member; the reader
/// learns its template then. Each format learns its own templates
/// (`FeatureTemplate+GeoJSON`, `FeatureTemplate+EsriJSON`).
package struct FeatureTemplate {
    /// What a template reads after a run.
    package enum Slot {
        /// A property's value, into the column at this index.
        case property(Int)
        /// A member's value the format does not keep, skipped.
        case skip
        /// The GeoJSON feature's `id`.
        case id
        /// A geometry's coordinate arrays (`coordinates`, `paths`, `rings`, `points`).
        case coordinates
        /// An Esri point's `x`, `y`, `z` or `m` (0…3).
        case ordinate(Int)
        /// Nothing to read: the geometry object just closed, and its geometry
        /// goes into the row here, where reading member by member puts it (so
        /// an error in it comes first and names the same byte).
        case geometryEnd
    }

    /// A run of bytes, then what follows it.
    package struct Step {
        /// Where the run is in the document the template was learned from, and its length.
        package let start: Int
        package let count: Int
        package let slot: Slot
        /// Containers the value lies in, counting the feature's own object.
        package let depth: Int
    }

    package private(set) var steps: [Step] = []
    /// The run that closes the feature.
    package private(set) var close = (start: 0, count: 0)
    /// The geometry type the runs spell; nil for none (an Esri `{}`).
    package private(set) var geometryType: WKBType?
    /// Whether the features have a geometry object (not null, not missing).
    private var hasGeometry = false
    /// How many columns the properties fill.
    package private(set) var propertyCount = 0

    /// Reads one feature: the runs compared, properties and skipped members
    /// read here, the format's own slots by `readSlot`, and no geometry for the
    /// row when the features have no geometry object. Returns false, with the
    /// scanner and the row as they were, where the bytes differ; the caller
    /// ends the row.
    @inline(__always)
    package func read(
        _ scanner: inout JSONScanner, into builder: BatchBuilder,
        _ readSlot: (Slot, inout JSONScanner) throws(FeatureCacheError) -> Void
    ) throws(FeatureCacheError) -> Bool {
        let start = scanner.offset
        var done = 0
        for step in steps {
            guard scanner.consumeLiteral(from: step.start, count: step.count) else {
                takeBack(steps.prefix(done), from: builder)
                scanner.rewind(to: start)
                return false
            }
            scanner.adjustDepth(by: step.depth)
            switch step.slot {
            case let .property(column): try builder.appendValue(toColumn: column, from: &scanner)
            case .skip: try scanner.skipValue()
            default: try readSlot(step.slot, &scanner)
            }
            scanner.adjustDepth(by: -step.depth)
            done += 1
        }
        guard scanner.consumeLiteral(from: close.start, count: close.count) else {
            takeBack(steps[...], from: builder)
            scanner.rewind(to: start)
            return false
        }
        if !hasGeometry { builder.geometry.appendNull() }
        return true
    }

    /// Takes back what these steps put into the row.
    private func takeBack(_ done: ArraySlice<Step>, from builder: BatchBuilder) {
        for step in done {
            switch step.slot {
            case let .property(column): builder.columns[column].removeLastValue()
            case .geometryEnd: builder.geometry.removeLastRow()
            default: break
            }
        }
    }

    // MARK: - Learning

    /// Records a template while a format's learner walks a feature again.
    package struct Recorder {
        package var probe: JSONScanner
        package private(set) var template = FeatureTemplate()
        private var runStart: Int
        private var keys = Set<String>()

        private init(_ scanner: JSONScanner, at start: Int) {
            probe = scanner
            probe.rewind(to: start)
            runStart = start
        }

        /// The template of the feature in `range` of the scanner's document,
        /// just read member by member: `member` records each member of the
        /// feature object (the probe stands after its key) and returns false
        /// for one no template can describe. nil as well for a member listed
        /// twice in one object.
        package static func record(
            _ scanner: JSONScanner, range: Range<Int>,
            member: (inout Recorder) throws(FeatureCacheError) -> Bool
        ) -> FeatureTemplate? {
            var recorder = Recorder(scanner, at: range.lowerBound)
            do throws(FeatureCacheError) {
                try recorder.probe.beginObject()
                while try recorder.probe.nextKey() {
                    guard recorder.isFirst("feature"), try member(&recorder) else { return nil }
                }
            } catch {
                return nil  // read member by member just before: cannot happen
            }
            guard recorder.probe.offset == range.upperBound else { return nil }
            var template = recorder.template
            template.close = (recorder.runStart, range.upperBound - recorder.runStart)
            return template
        }

        /// Ends the current run here, with the slot that reads what follows:
        /// just after a member's `:` (or the geometry's `}`), where reading
        /// member by member stands.
        package mutating func slot(_ slot: Slot, depth: Int) {
            template.steps.append(Step(start: runStart, count: probe.offset - runStart, slot: slot, depth: depth))
            if case .property = slot { template.propertyCount += 1 }
        }

        /// A new run starts here, after a value the learner read itself.
        package mutating func restartRun() { runStart = probe.offset }

        /// Ends the current run with `slot`, and steps over the value it reads.
        package mutating func value(_ slot: Slot, depth: Int) throws(FeatureCacheError) {
            self.slot(slot, depth: depth)
            try probe.skipValue()
            restartRun()
        }

        /// An object of values (GeoJSON `properties`, Esri `attributes`), or
        /// null: each key's column found as reading member by member finds it.
        /// A key without a column is skipped when `skipsUnknown`, else (like a
        /// column named twice in the schema, where the copy a value goes to
        /// depends on the row) no template's.
        package mutating func values(_ builder: BatchBuilder, skipsUnknown: Bool) throws(FeatureCacheError) -> Bool {
            if try probe.readNull() { return true }
            try probe.beginObject()
            var columns = Set<Int>()
            while try probe.nextKey() {
                guard isFirst("values") else { return false }
                guard let column = builder.column(forKeyOf: probe, hint: template.propertyCount) else {
                    guard skipsUnknown else { return false }
                    try value(.skip, depth: 2)
                    continue
                }
                guard builder.hasUniqueName(column), columns.insert(column).inserted else { return false }
                try value(.property(column), depth: 2)
            }
            return true
        }

        /// A geometry object, or null: `member` records each member (false: no
        /// template's), then `type` is the geometry's type and it goes into the
        /// row where the object closes.
        package mutating func geometry(
            _ member: (inout Recorder) throws(FeatureCacheError) -> Bool,
            type: () -> WKBType?
        ) throws(FeatureCacheError) -> Bool {
            if try probe.readNull() { return true }
            try probe.beginObject()
            while try probe.nextKey() {
                guard isFirst("geometry"), try member(&self) else { return false }
            }
            template.hasGeometry = true
            template.geometryType = type()
            slot(.geometryEnd, depth: 0)
            restartRun()
            return true
        }

        /// Whether the current key is new in its object (`scope` names the object).
        private mutating func isFirst(_ scope: String) -> Bool { keys.insert(scope + "\u{0}" + probe.key).inserted }
    }
}

/// The templates of the last few layouts a reader met, latest first (a layer
/// of polygons and multipolygons has two), and whether they pay: when more
/// than a quarter of the features match none, trying and learning them costs
/// more than it saves (a feature may be read up to six times over: four
/// templates that fail at its last run, member by member, and learning), so
/// they are dropped and none learned until matches are the rule again.
package struct FeatureTemplates {
    package private(set) var all: [FeatureTemplate] = []
    private var features = 0
    private var misses = 0
    package let enabled: Bool
    package static let maxCount = 4

    package init(enabled: Bool) { self.enabled = enabled }

    /// Counts a feature, and whether a template read it.
    package mutating func count(matched: Bool) {
        features += 1
        if !matched, !all.isEmpty { misses += 1 }
        if !pays { all.removeAll() }
    }

    private var pays: Bool { misses <= 16 || misses * 4 <= features }

    /// Whether to learn the template of a feature no template matched.
    package var wantsToLearn: Bool { enabled && pays }

    package mutating func add(_ template: FeatureTemplate?) {
        guard let template else { return }
        all.insert(template, at: 0)
        if all.count > Self.maxCount { all.removeLast() }
    }
}
