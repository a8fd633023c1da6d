// SPDX-License-Identifier: Apache-2.0
import FeatureCache
import Testing

/// Strong (layer → table) and weak (map → layers) load dependencies.
@Suite struct DependencyTests {
    @Test func layerLoadsItsTableAndSharesItsError() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let layer = FeatureLayer(table: table)
        let result = Recorder<FeatureCacheError?>()
        layer.load { result.append($0) }
        #expect(await transport.waitForHeld(1))
        #expect(table.loadStatus == .loading)
        transport.answer(.failure(FeatureCacheError(.service, "Token Required", serviceCode: 499)))
        #expect(await result.waitFor(1))
        let error = try #require(result.all.first ?? nil)
        #expect(error.serviceCode == 499)
        #expect(layer.loadError == table.loadError)
        #expect(layer.loadStatus == .failedToLoad)

        // retrying the layer retries the table
        layer.retryLoad { result.append($0) }
        #expect(await transport.waitForHeld(1))
        transport.answer(.success(.json(treesLayerJSON)))
        #expect(await result.waitFor(2))
        #expect(result.all[1] == nil)
        #expect(table.loadStatus == .loaded)
        #expect(transport.requestCount == 2)
    }

    @Test func propertiesSetBeforeLoadWin() async throws {
        let table = try makeTable(ScriptedTransport(automatic: .success(.json(treesLayerJSON))))
        let overridden = FeatureLayer(table: table)
        let plain = FeatureLayer(table: table)
        try overridden.setMinScale(10_000)
        #expect(plain.minScale == 0)
        try await overridden.load()
        try await plain.load()
        #expect(overridden.minScale == 10_000)
        #expect(plain.minScale == 250_000)
        #expect(throws: FeatureCacheError.self) { try plain.setMaxScale(-.infinity) }
    }

    @Test func mapLoadsDespiteAFailingLayer() async throws {
        let good = FeatureLayer(table: try makeTable(ScriptedTransport(automatic: .success(.json(treesLayerJSON)))))
        let bad = FeatureLayer(table: try makeTable(ScriptedTransport(automatic: .failure(.init(.network, "refused")))))
        let map = Map()
        map.addLayer(good)
        map.addLayer(bad)
        try await map.load()
        #expect(map.loadStatus == .loaded)
        #expect(good.loadStatus == .loaded)
        #expect(bad.loadStatus == .failedToLoad)
        #expect(bad.loadError?.code == .network)
    }

    @Test func cancellingALayerLeavesItsSharedTableLoading() async throws {
        let transport = ScriptedTransport()
        let table = try makeTable(transport)
        let first = FeatureLayer(table: table)
        let second = FeatureLayer(table: table)
        first.load(completion: nil)
        second.load(completion: nil)
        #expect(await transport.waitForHeld(1))
        first.cancelLoad()
        #expect(first.loadStatus == .failedToLoad)
        #expect(table.loadStatus == .loading)
        transport.answer(.success(.json(treesLayerJSON)))
        try await second.load()
        #expect(second.loadStatus == .loaded)
        #expect(transport.requestCount == 1)
    }
}
