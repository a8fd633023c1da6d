// SPDX-License-Identifier: Apache-2.0
@testable import FCArcGIS
@testable import FCSupport
@testable import FCData
import Testing

/// What a store write records for change observers (StoreDelta): adds, changes
/// compared row against row, removals, the box before and after, and several
/// writes folded into one change.
@Suite struct StoreDeltaTests {
    private func batch(_ rows: [(id: Int64, name: String, x: Double)]) throws -> FeatureBatch {
        let features = rows.map { #"{"attributes":{"OID":\#($0.id),"S":"\#($0.name)"},"geometry":{"x":\#($0.x),"y":1}}"# }
        let json = #"{"features":[\#(features.joined(separator: ","))]}"#
        let fields = [FieldInfo(name: "OID", type: .oid), FieldInfo(name: "S", type: .string)]
        return try Array(json.utf8).withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OID") }.batch
    }

    @Test func addsChangesAndRemovalsAreTold() throws {
        let store = FeatureStore()
        var delta: StoreDelta? = StoreDelta()
        store.apply([try batch([(1, "a", 0), (2, "b", 1), (3, "c", 2)])], clearingFirst: false, recording: &delta)
        #expect(delta?.added == [1, 2, 3] && delta?.updated == [] && delta?.deleted == [])
        delta = StoreDelta()
        store.apply([try batch([(1, "a", 0), (2, "B", 5)])], clearingFirst: false, recording: &delta)
        #expect(delta?.added == [] && delta?.updated == [2] && delta?.deleted == [])
        #expect(delta?.box.xmin == 1 && delta?.box.xmax == 5)  // old and new place of 2
        delta = StoreDelta()
        #expect(store.remove([3, 9], recording: &delta) == 1)
        #expect(delta?.deleted == [3] && delta?.box.xmin == 2)
        delta = StoreDelta()
        store.apply([try batch([(2, "B", 5), (4, "d", 7)])], clearingFirst: true, recording: &delta)
        #expect(delta?.added == [4] && delta?.updated == [] && delta?.deleted == [1])
        var none: StoreDelta? = nil
        store.apply([try batch([(5, "e", 0)])], clearingFirst: false, recording: &none)
        #expect(none == nil)
    }

    @Test func writesFoldIntoOneChange() {
        var first = StoreDelta()
        first.added = [1, 2]
        first.deleted = [3]
        var later = StoreDelta()
        later.deleted = [1]
        later.added = [3]
        later.updated = [2]
        first.append(later)
        #expect(first.added == [2] && first.updated == [3] && first.deleted == [])
    }
}
