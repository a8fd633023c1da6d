// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A URL reference a server wrote (a redirect's `Location`, a link's `href`)
/// made absolute against the URL it came with, in the forms servers write
/// (RFC 3986 §5): absolute `http(s)://…`, scheme-relative `//host/path`,
/// absolute-path `/path`, query-only `?query`, or relative `path`. Any other
/// scheme (`file:`, `ftp:`, `javascript:`) and anything `RequestURL` refuses is
/// a `.protocol` error: a server's link the library cannot follow.
package enum URLReference {
    package static func resolve(_ reference: String, against base: String) throws(FeatureCacheError) -> RequestURL {
        let absolute: String
        let lower = reference.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            absolute = reference
        } else if let colon = reference.firstIndex(of: ":"),
            !reference[..<colon].isEmpty, !reference[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        {
            throw .protocol("'\(RequestURL.redacted(String(reference.prefix(200))))' uses a scheme other than http and https")
        } else if let separator = base.firstRange(of: "://") {
            let scheme = base[..<separator.lowerBound]
            let authorityEnd = base[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? base.endIndex
            let root = String(base[..<authorityEnd])
            let path = base[..<(base.firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex)]
            if reference.hasPrefix("//") {
                absolute = scheme + ":" + reference
            } else if reference.hasPrefix("/") {
                absolute = root + reference
            } else if reference.hasPrefix("?") {
                absolute = path + reference
            } else {
                let directory = path.count > root.count ? path[..<(path.lastIndex(of: "/") ?? path.endIndex)] : Substring(root)
                absolute = directory + "/" + reference
            }
        } else {
            throw .protocol(
                "'\(RequestURL.redacted(String(reference.prefix(200))))' cannot be resolved against '\(RequestURL.redacted(base))'")
        }
        do {
            return try RequestURL(parsing: absolute)
        } catch {
            throw .protocol("'\(RequestURL.redacted(String(absolute.prefix(200))))' is not a URL the library can follow: \(error.message)")
        }
    }
}
