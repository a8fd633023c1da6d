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
