// SPDX-License-Identifier: Apache-2.0
/// Every failure the library reports: a code from a fixed family, a message that
/// names what was wrong, and where a server was involved its HTTP status and the
/// service's own error code (e.g. ArcGIS 498 "Invalid token").
public struct FeatureCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The family of failure: the C ABI's `FC_E_*` code (FeatureCacheError+Code.generated.swift).
    public var code: Code
    /// A failure that may pass if the same request is sent again (a reset or
    /// cut connection): what the retry policy retries. Declared here, beside
    /// `code`, so it fits the padding: every throwing call on the hot reading
    /// paths carries this error, and it stays 32 bytes.
    package var isTransient = false
    public var message: String
    /// HTTP status of the response that caused the error, 0 if none.
    public var httpStatus: Int32
    /// The service's own error code (ArcGIS `error.code`), 0 if none.
    public var serviceCode: Int32

    public init(_ code: Code, _ message: String, httpStatus: Int32 = 0, serviceCode: Int32 = 0) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.serviceCode = serviceCode
    }

    /// Equal in what callers see: code, message, HTTP status, service code.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.httpStatus == rhs.httpStatus && lhs.serviceCode == rhs.serviceCode
    }

    public var description: String {
        var text = "\(code): \(message)"
        if httpStatus != 0 { text += " (HTTP \(httpStatus))" }
        if serviceCode != 0 { text += " (service code \(serviceCode))" }
        return text
    }

    package static func invalidArgument(_ message: String) -> Self { .init(.invalidArgument, message) }
    package static func invalidState(_ message: String) -> Self { .init(.invalidState, message) }
    package static func parse(_ message: String) -> Self { .init(.parse, message) }
    package static func `protocol`(_ message: String) -> Self { .init(.protocol, message) }
    package static func notFound(_ message: String, httpStatus: Int32 = 0, serviceCode: Int32 = 0) -> Self {
        .init(.notFound, message, httpStatus: httpStatus, serviceCode: serviceCode)
    }
    public static let cancelled = FeatureCacheError(.cancelled, "the operation was cancelled")
}

extension FeatureCacheError {
    /// Maps any error thrown inside the core to a `FeatureCacheError`; Swift's own
    /// `CancellationError` becomes `.cancelled`.
    public init(wrapping error: any Error) {
        if let error = error as? FeatureCacheError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self.init(.invalidState, "unexpected error: \(error)")
        }
    }
}
