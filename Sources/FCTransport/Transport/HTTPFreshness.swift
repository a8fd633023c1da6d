// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// How long an answer stays fresh by its own headers (RFC 9111 §4.2.1), read
/// as a private cache does: `Cache-Control: max-age` (`s-maxage` is for shared
/// caches only), else `Expires` against `Date`, less the `Age` a cache on the
/// way already spent. `no-cache` and `no-store` make it stale at once. No
/// heuristic from `Last-Modified`: a server that says nothing promises nothing.
package enum HTTPFreshness {
    /// Until when (epoch milliseconds) an answer received at `receivedAt` is
    /// fresh; nil when its headers say nothing of it.
    package static func freshUntil(_ headers: [(name: String, value: String)], receivedAt: Int64) -> Int64? {
        let age = firstHeader("Age", in: headers).flatMap { HTTPDate.deltaSeconds($0) } ?? 0
        if let control = firstHeader("Cache-Control", in: headers) {
            var maxAge: Int64?
            for directive in control.split(separator: ",") {
                // Empty pieces kept: "=" is a nameless directive, "max-age=" an unreadable one.
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: " \t").lowercased()
                if name == "no-cache" || name == "no-store" { return receivedAt }
                if name == "max-age", parts.count == 2 {
                    // An unreadable max-age is stale (§5.2.2.1: "treat it as 0").
                    maxAge = HTTPDate.deltaSeconds(parts[1].trimmingCharacters(in: " \t\"")) ?? 0
                }
            }
            if let maxAge { return receivedAt + (maxAge - min(age, maxAge)) * 1000 }
        }
        guard let expires = firstHeader("Expires", in: headers) else { return nil }
        // An invalid Expires ("0", say) means already expired (§5.3).
        guard let at = HTTPDate.epochMilliseconds(expires) else { return receivedAt }
        let date = firstHeader("Date", in: headers).flatMap { HTTPDate.epochMilliseconds($0) } ?? receivedAt
        return receivedAt + max(0, at - date - age * 1000)
    }
}
