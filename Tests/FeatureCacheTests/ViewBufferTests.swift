// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

private let mercator = SpatialReference(wkid: 3857)

private func box(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Envelope {
    Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: mercator)
}

private func corners(_ envelope: Envelope) -> [Double] { [envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax] }

@Suite struct ViewBufferTests {
    let view = box(0, 0, 1000, 800)

    @Test func theFirstViewIsBufferedOnEverySide() throws {
        let area = try ViewBuffer.area(view, scale: 10_000, after: nil, scale: 0, factor: 2)
        #expect(corners(area) == [-500, -400, 1500, 1200])
    }

    @Test func aPanPutsTheWholeBufferAheadOnTheAxesItMovedAlong() throws {
        let right = box(500, 0, 1500, 800)
        #expect(corners(try ViewBuffer.area(right, scale: 10_000, after: view, scale: 10_000, factor: 2)) == [500, 0, 2500, 800])
        let downLeft = box(-300, -200, 700, 600)
        #expect(corners(try ViewBuffer.area(downLeft, scale: 10_000, after: view, scale: 10_000, factor: 2)) == [-1300, -1000, 700, 600])
        // Factor 1: exactly the view, whatever the movement.
        #expect(corners(try ViewBuffer.area(right, scale: 10_000, after: view, scale: 10_000, factor: 1)) == corners(right))
    }

    @Test func zoomsJumpsAndTinyMovesAreNotPans() throws {
        let zoomedIn = box(250, 200, 750, 600)
        #expect(corners(try ViewBuffer.area(zoomedIn, scale: 5_000, after: view, scale: 10_000, factor: 2)) == [0, 0, 1000, 800])
        let far = box(5000, 0, 6000, 800)
        #expect(corners(try ViewBuffer.area(far, scale: 10_000, after: view, scale: 10_000, factor: 2)) == [4500, -400, 6500, 1200])
        let same = try ViewBuffer.area(view, scale: 10_000, after: view, scale: 10_000, factor: 2)
        #expect(corners(same) == [-500, -400, 1500, 1200])
        // Moved 5 m of a 1 km view sideways while panning up: only up is ahead.
        let up = box(5, 400, 1005, 1200)
        #expect(corners(try ViewBuffer.area(up, scale: 10_000, after: view, scale: 10_000, factor: 2)) == [5, 400, 1005, 2000])
    }

    @Test func aBufferThatOverflowsIsAnError() {
        let huge = box(-1e308, -1e308, 1e308, 1e308)
        #expect(throws: FeatureCacheError.self) { try ViewBuffer.area(huge, scale: 0, after: nil, scale: 0, factor: 2) }
        // Wider than a double: an error, not a pan from the view before.
        let wider = box(-1.7e308, -1.7e308, 1.7e308, 1.7e308)
        #expect(throws: FeatureCacheError.self) {
            try ViewBuffer.area(wider, scale: 0, after: box(-1e300, -1e300, 1e300, 1e300), scale: 0, factor: 2)
        }
    }
}
