// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Builds request URLs from a service URL and parameters, percent-encoding every
/// value so that no user text (a where clause, a token) can inject a parameter.
public struct RequestURL: Sendable, Equatable {
    /// Everything before `?`.
    public var base: String
    /// Parameters in order, already decoded.
    public var parameters: [(name: String, value: String)]

    public static func == (lhs: RequestURL, rhs: RequestURL) -> Bool {
        lhs.base == rhs.base && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    /// The longest URL the transport takes: libcurl refuses longer strings
    /// (CURL_MAX_INPUT_LENGTH).
    public static let maxLength = 8_000_000
    /// The most characters of a URL a message shows.
    package static let maxShownLength = 2_000

    /// Parses and checks a service URL: http or https, a host, a port of
    /// 1…65535 if any, no spaces or control characters, at most `maxLength`
    /// bytes. A fragment is dropped; the path keeps the form it was given in
    /// (a trailing slash stays: a server that redirects `/path` to `/path/`
    /// would otherwise be asked for `/path` again and again).
    public init(parsing text: String) throws(FeatureCacheError) {
        var text = text
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        guard text.utf8.count <= Self.maxLength else {
            throw .invalidArgument(
                "URL '\(Self.redacted(text))' is \(text.utf8.count) bytes, longer than the \(Self.maxLength) the transport accepts")
        }
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidArgument("URL '\(Self.redacted(text))' must start with http:// or https://")
        }
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw .invalidArgument(
                "URL '\(Self.redacted(text))' contains a space or control character (U+\(String(bad.value, radix: 16, uppercase: true)))")
        }
        let afterScheme = text[text.index(text.firstIndex(of: ":")!, offsetBy: 3)...]
        let host = afterScheme.prefix { $0 != "/" && $0 != "?" }
        guard !host.isEmpty, !host.hasPrefix(":") else { throw .invalidArgument("URL '\(Self.redacted(text))' has no host") }
        // host[:port], or [v6]:port: what follows the last ':' past any ']' is a port.
        let hostAndPort = host[(host.lastIndex(of: "@").map(host.index(after:)) ?? host.startIndex)...]
        if let colon = hostAndPort.lastIndex(of: ":"), !hostAndPort[colon...].contains("]") {
            let port = hostAndPort[hostAndPort.index(after: colon)...]
            let valid = port.count <= 5 && port.utf8.allSatisfy { (48...57).contains($0) } && (1...65535).contains(Int(port) ?? 0)
            guard port.isEmpty || valid else {  // an empty port is the scheme's (RFC 3986)
                throw .invalidArgument("URL '\(Self.redacted(text))' has port '\(port.prefix(20))': a port is a number from 1 to 65535")
            }
        }
        if let question = text.firstIndex(of: "?") {
            base = String(text[..<question])
            parameters = Self.decodeQuery(text[text.index(after: question)...])
        } else {
            base = text
            parameters = []
        }
    }

    /// The `host[:port]` of a URL ("" when it has none), lowercased.
    package static func host(of url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return "" }
        return String(parts[2].prefix { $0 != "?" }).lowercased()
    }

    public init(base: String, parameters: [(name: String, value: String)] = []) {
        self.base = base
        self.parameters = parameters
    }

    /// Sets a parameter, replacing any of the same name (compared case-insensitively,
    /// as ArcGIS, OGC KVP and WFS servers compare them).
    public mutating func set(_ name: String, _ value: String) {
        let lower = name.lowercased()
        guard let first = parameters.firstIndex(where: { $0.name.lowercased() == lower }) else {
            parameters.append((name, value))
            return
        }
        parameters[first] = (name, value)
        parameters = parameters.enumerated()
            .filter { $0.offset == first || $0.element.name.lowercased() != lower }
            .map(\.element)
    }

    /// Removes every parameter of that name (compared case-insensitively).
    public mutating func remove(_ name: String) {
        let lower = name.lowercased()
        parameters.removeAll { $0.name.lowercased() == lower }
    }

    /// A service's URL as a caller gave it, without the `f` (format) parameter
    /// each request of a JSON service sets for itself.
    package init(parsingService url: String) throws(FeatureCacheError) {
        self = try RequestURL(parsing: url)
        remove("f")
    }

    public func setting(_ name: String, _ value: String) -> RequestURL {
        var copy = self
        copy.set(name, value)
        return copy
    }

    /// A path appended to the base, e.g. `query` on a layer URL.
    public func appendingPath(_ component: String) -> RequestURL {
        RequestURL(base: base + (base.hasSuffix("/") ? "" : "/") + component, parameters: parameters)
    }

    public func value(of name: String) -> String? {
        let lower = name.lowercased()
        return parameters.first { $0.name.lowercased() == lower }?.value
    }

    /// The form-encoded parameters (`a=1&b=2`), also the body of a form POST.
    public var query: String {
        parameters.map { Self.percentEncode($0.name) + "=" + Self.percentEncode($0.value) }.joined(separator: "&")
    }

    public var string: String { parameters.isEmpty ? base : base + "?" + query }

    // MARK: - Encoding

    /// Percent-encodes everything outside RFC 3986's unreserved set.
    public static func percentEncode(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func percentDecode<S: StringProtocol>(_ text: S) -> String {
        var out = [UInt8]()
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                out.append(0x20)
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = hexValue(iterator[iterator.startIndex]), let low = hexValue(iterator[iterator.startIndex + 1])
            {
                out.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func decodeQuery<S: StringProtocol>(_ query: S) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (percentDecode(pair[..<equals]), percentDecode(pair[pair.index(after: equals)...]))
            }
            return (percentDecode(pair), "")
        }
    }

    /// Masks secrets in a URL string: the values of secret parameters
    /// (`token=***`) and user information (`http://***@host/`).
    /// Past `maxShownLength` bytes the rest is left out, with the length said.
    public static func redacted(_ url: String) -> String {
        guard url.utf8.count <= maxShownLength else {
            // Cut by bytes, not characters: a prefix of 2,000 characters can
            // still hold more than 2,000 bytes (this once recursed until the
            // stack ran out, on a server's Location of non-ASCII text).
            return masked(String(decoding: url.utf8.prefix(maxShownLength), as: UTF8.self)) + "… (\(url.utf8.count) bytes in all)"
        }
        return masked(url)
    }

    /// The URL with its secrets masked (as `redacted`) but never cut short:
    /// what a file may keep of a URL to open it again.
    package static func masked(_ url: String) -> String {
        var url = url
        if let scheme = url.firstRange(of: "://") {
            let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
            if let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@") {
                url.replaceSubrange(scheme.upperBound..<at, with: "***")
            }
        }
        guard let question = url.firstIndex(of: "?") else { return url }
        let pairs = url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), Credentials.secretParameters.contains(pair[..<equals].lowercased()) else {
                return String(pair)
            }
            return pair[..<equals] + "=***"
        }
        return url[..<question] + "?" + pairs.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
