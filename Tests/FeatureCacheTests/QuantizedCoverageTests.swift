// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 19: a tile fetched generalized to a tolerance answers views whose pixel
/// is down to half of it (vertices moved by at most half the tolerance: within
/// a pixel); a zoom past that fetches the tile again; which features there
/// are, it answers for any query.
@Suite struct QuantizedCoverageTests {
    let grid = TileGrid(extent: BoundingBox(0, 0, 1024, 1024), geographic: false)
    let signature = "where=&outFields=*"

    @Test func aGeneralizedTileAnswersCoarserViewsOnly() {
        var coverage = TileCoverage()
        let tile = TileKey(level: 2, x: 1, y: 1)
        coverage.cover(tile, signature: signature, ids: [1, 2], tolerance: 4)
        let inside = grid.bounds(tile)
        let same = coverage.covers(inside, grid: grid, signature: signature, tolerance: 4)
        let coarser = coverage.covers(inside, grid: grid, signature: signature, tolerance: 16)
        let halfAsFine = coverage.covers(inside, grid: grid, signature: signature, tolerance: 2)
        let finer = coverage.covers(inside, grid: grid, signature: signature, tolerance: 1.9)
        let membership = coverage.covers(inside, grid: grid, signature: signature)  // any tolerance
        #expect(same && coarser && halfAsFine && !finer && membership)
        // Zoomed in past it: its finer tiles are fetched, all of them.
        let child = tile.children[0]
        #expect(coverage.missingPieces(of: child, signature: signature, tolerance: 8).isEmpty)
        #expect(coverage.missingPieces(of: child, signature: signature, tolerance: 1) == [child])
        // Fetched finer, the finer piece answers finer views; the rest of the tile still does not.
        coverage.cover(child, signature: signature, ids: [1], tolerance: 1)
        #expect(coverage.missingPieces(of: child, signature: signature, tolerance: 1).isEmpty)
        #expect(coverage.missingPieces(of: tile, signature: signature, tolerance: 1) == Array(tile.children[1...]))
        #expect(coverage.missingPieces(of: tile, signature: signature, tolerance: 4).isEmpty)
    }

    @Test func exactTilesAnswerEveryView() {
        var coverage = TileCoverage()
        let tile = TileKey(level: 1, x: 0, y: 0)
        coverage.cover(tile, signature: signature, ids: [1])
        #expect(coverage.missingPieces(of: tile.children[3], signature: signature, tolerance: 0).isEmpty)
        let exactView = coverage.covers(grid.bounds(tile), grid: grid, signature: signature, tolerance: 0)
        #expect(exactView)
    }

    @Test func unitsPerPixelFollowTheScale() {
        #expect(grid.unitsPerPixel(scale: 0) == nil)
        let metres = grid.unitsPerPixel(scale: 96 / 0.0254)  // 1 metre per pixel at 96 dpi
        #expect(abs((metres ?? 0) - 1) < 1e-12)
        let degrees = TileGrid(extent: BoundingBox(-180, -90, 180, 90), geographic: true).unitsPerPixel(scale: 96 / 0.0254)
        #expect(abs((degrees ?? 0) - 1 / 111_319.490_793) < 1e-15)
    }
}
