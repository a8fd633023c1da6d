// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The origin of a URL (RFC 6454): scheme, host and port, lowercased, the
/// default port filled in. Credentials are sent only to the origin the caller
/// gave; this is what "the same origin" means when a server redirects or links.
package struct Origin: Equatable, Hashable, Sendable, CustomStringConvertible {
    package let scheme: String
    package let host: String
    package let port: Int

    package init?(_ url: String) {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = Substring(authority), port = scheme == "https" ? 443 : 80
        // A port follows the last ':' unless that colon is inside an IPv6 literal.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            port = number
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    package var description: String { "\(scheme)://\(host):\(port)" }

    /// Whether credentials meant for `trusted` may go here: the same origin, or
    /// the same host moved from http on port 80 to https on port 443 (an upgrade
    /// only: the credentials already travelled over plain http).
    package func mayReceiveCredentials(meantFor trusted: Origin) -> Bool {
        if self == trusted { return true }
        return trusted.scheme == "http" && trusted.port == 80 && scheme == "https" && port == 443 && host == trusted.host
    }
}
