// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The coordinate transforms between spatial references named by wkid: EPSG
/// codes, and Esri's own (`102719`, State Plane in feet) through PROJ's ESRI
/// authority. Operations are created once per pair and kept for the process
/// (PROJ's creation reads its database: milliseconds; a transform after that
/// is a lookup).
package enum Projection {
    private struct Pair: Hashable {
        let from: Int32, to: Int32
    }
    private static let made = Locked<[Pair: Result<CoordinateTransform, FeatureCacheError>]>([:])

    /// The transform taking coordinates from `from` to `to`; nil when nothing
    /// changes (the same reference, or an unknown one, 0, taken as the other's).
    /// `.unsupported` when PROJ knows no such CRS or no operation between them.
    package static func transform(from: Int32, to: Int32) throws(FeatureCacheError) -> CoordinateTransform? {
        if from == 0 || to == 0 || from == to || (WebMercator.isMercator(from) && WebMercator.isMercator(to)) { return nil }
        if WebMercator.isGeographic(from), WebMercator.isMercator(to) {
            return CoordinateTransform(formula: WebMercator.forward, label: "EPSG:4326 → EPSG:3857")
        }
        if WebMercator.isMercator(from), WebMercator.isGeographic(to) {
            return CoordinateTransform(formula: WebMercator.inverse, label: "EPSG:3857 → EPSG:4326")
        }
        let pair = Pair(from: from, to: to)
        if let known = made.withLock({ $0[pair] }) { return try known.get() }
        // Created outside the lock: another thread may make the same pair meanwhile (harmless).
        let result: Result<CoordinateTransform, FeatureCacheError>
        do throws(FeatureCacheError) {
            let source = try crsName(from), target = try crsName(to)
            let operation = try PROJOperation(from: source, to: target)
            result = .success(CoordinateTransform(operation, label: "\(source) → \(target)"))
        } catch {
            result = .failure(error)
        }
        made.withLock { $0[pair] = result }
        return try result.get()
    }

    /// How PROJ names a wkid: `EPSG:n` when the EPSG registry has it, else
    /// `ESRI:n` (Esri's codes, 53000-54999 and 102000 up, never collide with EPSG's).
    package static func crsName(_ wkid: Int32) throws(FeatureCacheError) -> String {
        if WebMercator.isMercator(wkid) { return "EPSG:3857" }
        if PROJOperation.knows("EPSG:\(wkid)") { return "EPSG:\(wkid)" }
        if PROJOperation.knows("ESRI:\(wkid)") { return "ESRI:\(wkid)" }
        throw FeatureCacheError(.unsupported, "wkid \(wkid) is neither an EPSG nor an Esri code PROJ knows")
    }
}
