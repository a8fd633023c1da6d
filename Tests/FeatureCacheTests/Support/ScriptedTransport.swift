// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FeatureCache

/// A transport the test drives: every request is counted and held until the test
/// answers it (`respond`/`fail`), or answered at once by a canned reply. Held
/// requests honour task cancellation like the real transport, so interleavings
/// of load, cancel and completion are chosen by the test, not by timing.
final class ScriptedTransport: Transport {
    typealias Reply = Result<HTTPResponse, FeatureCacheError>

    private struct Held {
        let id: Int
        let request: HTTPRequest
        let continuation: CheckedContinuation<HTTPResponse, any Error>
    }

    private struct State {
        var automatic: Reply?
        var held: [Held] = []
        var requests: [HTTPRequest] = []
        var cancelled = 0
        var nextID = 0
    }

    private let state = Locked(State())

    /// `automatic` answers every request at once; nil holds them for the test.
    init(automatic: Reply? = nil) {
        state.withLock { $0.automatic = automatic }
    }

    var requestCount: Int { state.withLock { $0.requests.count } }
    var cancelledCount: Int { state.withLock { $0.cancelled } }
    var heldCount: Int { state.withLock { $0.held.count } }
    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: HTTPRequest) async throws(FeatureCacheError) -> HTTPResponse {
        let id = state.withLock { state -> Int in
            state.requests.append(request)
            state.nextID += 1
            return state.nextID
        }
        if let reply = state.withLock({ $0.automatic }) { return try reply.get() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    state.withLock { $0.held.append(Held(id: id, request: request, continuation: continuation)) }
                    if Task.isCancelled { cancel(id) }
                }
            } onCancel: {
                cancel(id)
            }
        } catch {
            throw FeatureCacheError(wrapping: error)
        }
    }

    private func cancel(_ id: Int) {
        let held = state.withLock { state -> Held? in
            guard let index = state.held.firstIndex(where: { $0.id == id }) else { return nil }
            state.cancelled += 1
            return state.held.remove(at: index)
        }
        held?.continuation.resume(throwing: FeatureCacheError.cancelled)
    }

    /// Answers the oldest held request; false if none is held.
    @discardableResult
    func answer(_ reply: Reply) -> Bool {
        let held = state.withLock { state -> Held? in state.held.isEmpty ? nil : state.held.removeFirst() }
        guard let held else { return false }
        switch reply {
        case .success(let response): held.continuation.resume(returning: response)
        case .failure(let error): held.continuation.resume(throwing: error)
        }
        return true
    }

    /// Waits (polling, bounded) until `count` requests are held.
    func waitForHeld(_ count: Int = 1) async -> Bool {
        for _ in 0..<5000 {
            if heldCount >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }
}

extension HTTPResponse {
    static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }
}

/// A minimal but real layer resource.
let treesLayerJSON = """
    {"currentVersion":11.1,"id":0,"name":"Trees","type":"Feature Layer","geometryType":"esriGeometryPoint",
     "minScale":250000,"maxScale":0,"objectIdField":"OBJECTID","displayField":"Species",
     "extent":{"xmin":-122.75,"ymin":45.43,"xmax":-122.5,"ymax":45.6,"spatialReference":{"wkid":4326,"latestWkid":4326}},
     "fields":[{"name":"OBJECTID","type":"esriFieldTypeOID","alias":"OBJECTID"},
               {"name":"Species","type":"esriFieldTypeString","alias":"Species","length":64}],
     "maxRecordCount":2000,"advancedQueryCapabilities":{"supportsPagination":true}}
    """

let layerURL = "https://example.test/arcgis/rest/services/Trees/FeatureServer/0"

func makeTable(_ transport: ScriptedTransport) throws -> FeatureTable {
    try FeatureTable.arcgis(url: layerURL, context: ClientContext(transport: transport))
}

/// Records what callbacks and observers saw, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }

    /// Waits (polling, bounded) until `count` values were recorded.
    func waitFor(_ count: Int) async -> Bool {
        for _ in 0..<5000 {
            if self.count >= count { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return false
    }
}

/// Runs a blocking call on a Dispatch thread (not the cooperative pool, which a
/// blocking wait would starve) and returns its error, if any.
func blockingOnAnotherThread(_ body: @escaping @Sendable () throws(FeatureCacheError) -> Void) async -> FeatureCacheError? {
    await withCheckedContinuation { (continuation: CheckedContinuation<FeatureCacheError?, Never>) in
        // A queue of its own gets a thread of its own (an overcommitting root
        // queue), as a C caller's thread would be. On DispatchQueue.global(),
        // whose threads number the cores (2 here), this blocked thread could
        // hold the last one the library's event queues needed to deliver the
        // callbacks the wait waits for, until the wait timed out.
        DispatchQueue(label: "featurecache.tests.blocking").async {
            do {
                try body()
                continuation.resume(returning: nil)
            } catch {
                continuation.resume(returning: FeatureCacheError(wrapping: error))
            }
        }
    }
}
