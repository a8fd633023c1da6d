// SPDX-License-Identifier: Apache-2.0
import FeatureCache
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("fc_last_error")
public func fcLastError() -> OpaquePointer? {
    LastError.slot.value?.pointer
}

@_cdecl("fc_error_code")
public func fcErrorCode(_ error: OpaquePointer?) -> Int32 {
    ErrorBox.from(error)?.error.code.rawValue ?? 0
}

private let emptyString: StaticString = ""

@_cdecl("fc_error_message")
public func fcErrorMessage(_ error: OpaquePointer?) -> UnsafePointer<CChar> {
    guard let box = ErrorBox.from(error) else {
        return UnsafeRawPointer(emptyString.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    return UnsafePointer(box.message)
}

@_cdecl("fc_error_http_status")
public func fcErrorHTTPStatus(_ error: OpaquePointer?) -> Int32 {
    ErrorBox.from(error)?.error.httpStatus ?? 0
}

@_cdecl("fc_error_service_code")
public func fcErrorServiceCode(_ error: OpaquePointer?) -> Int32 {
    ErrorBox.from(error)?.error.serviceCode ?? 0
}

/// Static names, so the returned pointers never dangle.
private let statusNames: [Int32: StaticString] = [
    0: "FC_OK", -1: "FC_E_INVALID_ARGUMENT", -2: "FC_E_INVALID_STATE", -3: "FC_E_CANCELLED",
    -4: "FC_E_TIMEOUT", -5: "FC_E_NETWORK", -6: "FC_E_HTTP", -7: "FC_E_SERVICE", -8: "FC_E_PARSE",
    -9: "FC_E_UNSUPPORTED", -10: "FC_E_LIMIT", -11: "FC_E_PROTOCOL", -12: "FC_E_NOT_FOUND",
    -13: "FC_E_CONFLICT", -14: "FC_E_STORAGE",
]
private let unknownStatus: StaticString = "FC_E_UNKNOWN"

@_cdecl("fc_status_name")
public func fcStatusName(_ status: Int32) -> UnsafePointer<CChar> {
    let name = statusNames[status] ?? unknownStatus
    return UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("fc_string_free")
public func fcStringFree(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}

@_cdecl("fc_clear_last_error")
public func fcClearLastError() {
    LastError.slot.value = nil
}
