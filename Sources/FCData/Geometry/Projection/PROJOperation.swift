// SPDX-License-Identifier: Apache-2.0
import CPROJ
import FCSupport

/// A coordinate operation between two CRSs as PROJ chose it — the best one it
/// has offline for each point (`proj_create_crs_to_crs`), axes normalised to
/// x = easting/longitude, y = northing/latitude (the library's order). The one
/// place the library calls PROJ.
///
/// PROJ objects must not be used by two threads at once, so every use borrows a
/// private copy (its own `PJ_CONTEXT` and `PJ`) from a pool and gives it back;
/// a copy is cloned when all are busy. Network access (grid downloads) is off
/// and PROJ's logging silenced: nothing here writes to the host's stderr.
package final class PROJOperation: Sendable {
    package let source: String
    package let target: String
    /// PROJ's accuracy of the operation in metres (of the best one it has
    /// offline, when it chooses among several by area); nil when PROJ does not
    /// know it (a ballpark transformation).
    package let accuracy: Double?
    /// PROJ's name of the operation (`Inverse of … + UTM zone 32N`).
    package let name: String

    private let pool: Locked<[Instance]>
    /// The operation as created; cloned (under the pool's lock) for each copy.
    private let original: Instance

    /// The operation from `source` to `target`, CRSs as PROJ reads them
    /// (`EPSG:25832`, `ESRI:102719`, WKT, PROJJSON). `.unsupported` naming what
    /// PROJ could not read or relate.
    package init(from source: String, to target: String) throws(FeatureCacheError) {
        guard let context = makePROJContext() else {
            throw FeatureCacheError(.unsupported, "PROJ could not make a context (out of memory)")
        }
        func fail(_ what: String) -> FeatureCacheError {
            let reason = Instance.lastError(context)
            proj_context_destroy(context)
            return FeatureCacheError(.unsupported, what + (reason.isEmpty ? "" : " (PROJ: \(reason))"))
        }
        guard let from = proj_create(context, source) else { throw fail("PROJ cannot read the CRS \(PROJCRS.shown(source))") }
        defer { proj_destroy(from) }
        guard let to = proj_create(context, target) else { throw fail("PROJ cannot read the CRS \(PROJCRS.shown(target))") }
        defer { proj_destroy(to) }
        guard let chosen = proj_create_crs_to_crs_from_pj(context, from, to, nil, nil) else {
            throw fail("PROJ has no operation from \(PROJCRS.shown(source)) to \(PROJCRS.shown(target))")
        }
        let normalised = proj_normalize_for_visualization(context, chosen)
        proj_destroy(chosen)
        guard let normalised else { throw fail("PROJ cannot order the axes of \(PROJCRS.shown(source)) → \(PROJCRS.shown(target))") }
        accuracy = Self.bestAccuracy(context, from, to)
        name = proj_get_name(normalised).map { String(cString: $0) } ?? ""
        original = Instance(context: context, operation: normalised)
        pool = Locked([])
        self.source = source
        self.target = target
    }

    /// Runs `body` with a point function on a copy of the operation no other
    /// thread uses meanwhile. Points PROJ cannot project come back infinite (as
    /// every point does in the unlikely case PROJ could not copy the operation).
    package func withPointFunction<R, E: Error>(
        _ body: ((Double, Double) -> (Double, Double)) throws(E) -> R
    ) throws(E) -> R {
        guard let instance = borrow() else { return try body { _, _ in (.infinity, .infinity) } }
        defer { pool.withLock { $0.append(instance) } }
        let operation = instance.operation
        return try body { x, y in
            let out = proj_trans(operation, PJ_FWD, PJ_COORD(xyzt: PJ_XYZT(x: x, y: y, z: 0, t: .infinity)))
            return (out.xy.x, out.xy.y)
        }
    }

    /// Projects `count` interleaved x, y pairs in place (one PROJ call).
    package func transform(_ xy: UnsafeMutablePointer<Double>, count: Int) {
        guard let instance = borrow() else {
            xy.update(repeating: .infinity, count: 2 * count)
            return
        }
        defer { pool.withLock { $0.append(instance) } }
        let stride = 2 * MemoryLayout<Double>.stride
        _ = proj_trans_generic(instance.operation, PJ_FWD, xy, stride, count, xy + 1, stride, count, nil, 0, 0, nil, 0, 0)
    }

    /// The accuracy PROJ gives the first operation it would use between the two
    /// CRSs with the grids on this machine (it lists them best first); 0 for a
    /// conversion (exact), nil when PROJ does not know it.
    private static func bestAccuracy(_ context: OpaquePointer, _ from: OpaquePointer, _ to: OpaquePointer) -> Double? {
        guard let factory = proj_create_operation_factory_context(context, nil) else { return nil }
        defer { proj_operation_factory_context_destroy(factory) }
        proj_operation_factory_context_set_grid_availability_use(context, factory, PROJ_GRID_AVAILABILITY_DISCARD_OPERATION_IF_MISSING_GRID)
        proj_operation_factory_context_set_spatial_criterion(context, factory, PROJ_SPATIAL_CRITERION_PARTIAL_INTERSECTION)
        guard let operations = proj_create_operations(context, from, to, factory) else { return nil }
        defer { proj_list_destroy(operations) }
        guard proj_list_get_count(operations) > 0, let first = proj_list_get(context, operations, 0) else { return nil }
        defer { proj_destroy(first) }
        // A conversion (a projection on one datum) is exact; PROJ gives it no figure.
        if proj_get_type(first) == PJ_TYPE_CONVERSION { return 0 }
        let accuracy = proj_coordoperation_get_accuracy(context, first)
        return accuracy >= 0 ? accuracy : nil
    }

    /// A copy no other thread holds; nil only when PROJ cannot make one.
    private func borrow() -> Instance? {
        pool.withLock { free in
            if let instance = free.popLast() { return instance }
            // The original is never used to project, only cloned, under this lock.
            guard let context = makePROJContext() else { return nil }
            guard let copy = proj_clone(context, original.operation) else {
                proj_context_destroy(context)
                return nil
            }
            return Instance(context: context, operation: copy)
        }
    }

    /// One `PJ_CONTEXT` and the `PJ` made in it; destroyed together.
    private final class Instance: @unchecked Sendable {  // used by one thread at a time (the pool)
        let context: OpaquePointer
        let operation: OpaquePointer

        init(context: OpaquePointer, operation: OpaquePointer) {
            self.context = context
            self.operation = operation
        }

        deinit {
            proj_destroy(operation)
            proj_context_destroy(context)
        }

        static func lastError(_ context: OpaquePointer) -> String {
            let code = proj_context_errno(context)
            guard code != 0, let text = proj_context_errno_string(context, code) else { return "" }
            return String(cString: text)
        }
    }
}

/// A PROJ context as the library uses them all: quiet (no logging to the host's
/// stderr) and offline (no grid downloads at run time).
func makePROJContext() -> OpaquePointer? {
    guard let context = proj_context_create() else { return nil }
    proj_log_level(context, PJ_LOG_NONE)
    proj_context_set_enable_network(context, 0)
    return context
}
