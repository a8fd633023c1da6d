// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The coordinate transforms between spatial references: EPSG codes, Esri's own
/// (`102719`, State Plane in feet, through PROJ's ESRI authority), and the WKT
/// a service gives without a code. Operations are created once per pair and kept
/// for the process (PROJ's creation reads its database: milliseconds; a
/// transform after that is a lookup), and so are descriptions — up to
/// `maxRemembered` of each: services choose the WKT, so what they make the
/// library remember is bounded (past it the memory starts afresh; transforms in
/// use keep their operations).
package enum Projection {
    static let maxRemembered = 256

    private struct Pair: Hashable {
        let from: String, to: String
    }
    private static let made = Locked<[Pair: Result<CoordinateTransform, FeatureCacheError>]>([:])
    private static let names = Locked<[Int32: Result<String, FeatureCacheError>]>([:])
    private static let described = Locked<[String: Result<CRSDescription, FeatureCacheError>]>([:])

    /// The transform taking coordinates from `from` to `to`; nil when nothing
    /// changes (the same reference, or an unknown one, 0, taken as the other's).
    /// `.unsupported` when PROJ knows no such CRS or no operation between them.
    package static func transform(from: Int32, to: Int32) throws(FeatureCacheError) -> CoordinateTransform? {
        try transform(from: SpatialReference(wkid: from), to: SpatialReference(wkid: to))
    }

    /// The same between spatial references that may be WKT only (a code wins
    /// over WKT when both are given).
    package static func transform(from: SpatialReference?, to: SpatialReference?) throws(FeatureCacheError) -> CoordinateTransform? {
        let a = from?.effectiveWkid ?? 0, b = to?.effectiveWkid ?? 0
        if a != 0, b != 0 {
            if a == b || (WebMercator.isMercator(a) && WebMercator.isMercator(b)) { return nil }
            if WebMercator.isGeographic(a), WebMercator.isMercator(b) {
                return CoordinateTransform(formula: WebMercator.forward, label: "EPSG:4326 → EPSG:3857")
            }
            if WebMercator.isMercator(a), WebMercator.isGeographic(b) {
                return CoordinateTransform(formula: WebMercator.inverse, label: "EPSG:3857 → EPSG:4326")
            }
        }
        guard let source = try definition(from), let target = try definition(to), source != target else { return nil }
        let pair = Pair(from: source, to: target)
        if let known = made.withLock({ $0[pair] }) { return try known.get() }
        // Created outside the lock: another thread may make the same pair meanwhile (harmless).
        let result: Result<CoordinateTransform, FeatureCacheError>
        do throws(FeatureCacheError) {
            let operation = try PROJOperation(from: source, to: target)
            result = .success(CoordinateTransform(operation, label: "\(label(source)) → \(label(target))"))
        } catch {
            result = .failure(error)
        }
        made.withLock { remember(result, at: pair, in: &$0) }
        return try result.get()
    }

    /// What PROJ says of a spatial reference (its WKT2, PROJJSON, axis order);
    /// nil for an unknown one.
    package static func describe(_ reference: SpatialReference?) throws(FeatureCacheError) -> CRSDescription? {
        guard let crs = try definition(reference) else { return nil }
        if let known = described.withLock({ $0[crs] }) { return try known.get() }
        let result: Result<CRSDescription, FeatureCacheError>
        do throws(FeatureCacheError) { result = .success(try PROJCRS.describe(crs)) } catch { result = .failure(error) }
        described.withLock { remember(result, at: crs, in: &$0) }
        return try result.get()
    }

    /// How PROJ is told of a reference: its code's name, else its WKT; nil for neither.
    private static func definition(_ reference: SpatialReference?) throws(FeatureCacheError) -> String? {
        guard let reference else { return nil }
        if reference.effectiveWkid != 0 { return try crsName(reference.effectiveWkid) }
        if let wkt = reference.wkt, !wkt.isEmpty { return try checkedWKT(wkt) }
        return nil
    }

    /// The most WKT a service may hand PROJ (real definitions are a few KB).
    static let maxWKTLength = 65_536

    /// `text` when it is WKT (`KEYWORD[…`): PROJ also reads PROJ strings, whose
    /// `+init=` names files, and URLs; what a server calls WKT is never taken as those.
    private static func checkedWKT(_ text: String) throws(FeatureCacheError) -> String {
        let trimmed = text.trimmingCharacters(in: " \t\r\n")
        let keyword = trimmed.utf8.prefix { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        guard trimmed.utf8.count <= maxWKTLength, (2...32).contains(keyword.count),
            trimmed.utf8.dropFirst(keyword.count).first == UInt8(ascii: "[")
        else {
            throw FeatureCacheError(.unsupported, "the spatial reference '\(trimmed.prefix(40))…' is not WKT the library can read")
        }
        return trimmed
    }

    /// How PROJ names a wkid: `EPSG:n` when the EPSG registry has it, else
    /// `ESRI:n` (Esri's codes, 53000-54999 and 102000 up, never collide with EPSG's).
    package static func crsName(_ wkid: Int32) throws(FeatureCacheError) -> String {
        if WebMercator.isMercator(wkid) { return "EPSG:3857" }
        if WebMercator.isGeographic(wkid) { return "EPSG:4326" }
        if let known = names.withLock({ $0[wkid] }) { return try known.get() }
        let result: Result<String, FeatureCacheError> =
            PROJCRS.knows("EPSG:\(wkid)")
            ? .success("EPSG:\(wkid)")
            : PROJCRS.knows("ESRI:\(wkid)")
                ? .success("ESRI:\(wkid)")
                : .failure(FeatureCacheError(.unsupported, "wkid \(wkid) is neither an EPSG nor an Esri code PROJ knows"))
        names.withLock { remember(result, at: wkid, in: &$0) }
        return try result.get()
    }

    private static func remember<Key, Value>(_ value: Value, at key: Key, in memory: inout [Key: Value]) {
        if memory.count >= maxRemembered { memory.removeAll(keepingCapacity: true) }
        memory[key] = value
    }

    /// A code as is; a WKT by its name (`PROJCS["NAD_1983_…"` → that name).
    private static func label(_ definition: String) -> String {
        guard definition.count > 40 else { return definition }
        if let open = definition.firstIndex(of: "\""), let close = definition[definition.index(after: open)...].firstIndex(of: "\"") {
            return "WKT '\(definition[definition.index(after: open)..<close])'"
        }
        return "'\(definition.prefix(37))…'"
    }
}
