// SPDX-License-Identifier: Apache-2.0
// featurecache.hpp — a header-only C++17 layer over featurecache.h (since 1.2).
//
// What it adds to the C API, and nothing else:
//  - RAII owners for every handle type (Context, Query, Result, Table,
//    Operation, Layer, Map, ArcGISService, OGCService, WFSService): movable,
//    not copyable, freed by their destructor. get() gives the C handle, so
//    every C function stays at hand for what this header does not wrap.
//  - Errors as exceptions: featurecache::Error carries the status, the HTTP
//    status, the service's error code and the message of fc_last_error().
//  - Callbacks as std::function, through trampolines defined here. A callback
//    runs on a library thread (see featurecache.h). An exception it throws never
//    unwinds into the library: the trampoline catches it and hands it to the
//    callback error handler (set_callback_error_handler; by default it is
//    written to stderr), then returns normally.
//
// Threads: as featurecache.h — every object may be used from any thread; one
// object is not made thread-safe against being moved or destroyed while another
// thread uses it.
#ifndef FEATURECACHE_HPP
#define FEATURECACHE_HPP

#include "featurecache.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace featurecache {

// ---- errors -------------------------------------------------------------------

/// A failure the library reported.
class Error : public std::runtime_error {
public:
    Error(fc_status status, std::string message, int32_t http_status = 0, int32_t service_code = 0)
        : std::runtime_error(std::move(message)), status_(status), http_status_(http_status),
          service_code_(service_code) {}

    /// From a borrowed fc_error (copied).
    static Error from(const fc_error *error, fc_status fallback = FC_E_INVALID_STATE) {
        if (!error) return Error(fallback, fc_status_name(fallback));
        return Error(fc_error_code(error), fc_error_message(error), fc_error_http_status(error),
                     fc_error_service_code(error));
    }

    /// A copy of a borrowed fc_error, or nullptr for none.
    static std::unique_ptr<Error> copy_of(const fc_error *error) {
        return error ? std::make_unique<Error>(from(error)) : nullptr;
    }

    fc_status status() const noexcept { return status_; }
    int32_t http_status() const noexcept { return http_status_; }
    int32_t service_code() const noexcept { return service_code_; }

private:
    fc_status status_;
    int32_t http_status_;
    int32_t service_code_;
};

// BEGIN GENERATED error classes (scripts/gen-contract.py from featurecache.h): one per status code
/// FC_E_CANCELLED: the operation was cancelled
class CancelledError : public Error {
public:
    explicit CancelledError(Error error) : Error(std::move(error)) {}
};

/// FC_E_CONFLICT: an edit of a feature the service changed since it was cached (a newer edit date with editor tracking, an ETag that no longer matches): refresh the feature, then edit again. @since 1.3
class ConflictError : public Error {
public:
    explicit ConflictError(Error error) : Error(std::move(error)) {}
};

/// FC_E_HTTP: HTTP status >= 400: see fc_error_http_status
class HTTPError : public Error {
public:
    explicit HTTPError(Error error) : Error(std::move(error)) {}
};

/// FC_E_INVALID_ARGUMENT: NULL or freed handle, bad enum value, bad string or URL
class InvalidArgumentError : public Error {
public:
    explicit InvalidArgumentError(Error error) : Error(std::move(error)) {}
};

/// FC_E_INVALID_STATE: e.g. metadata of a table that is not loaded; a wait inside a callback
class InvalidStateError : public Error {
public:
    explicit InvalidStateError(Error error) : Error(std::move(error)) {}
};

/// FC_E_LIMIT: a configured limit was hit (response size, pages, tiles, nesting)
class LimitError : public Error {
public:
    explicit LimitError(Error error) : Error(std::move(error)) {}
};

/// FC_E_NETWORK: could not connect, connection reset, TLS, DNS, truncated response
class NetworkError : public Error {
public:
    explicit NetworkError(Error error) : Error(std::move(error)) {}
};

/// FC_E_NOT_FOUND: the layer, collection or feature type is not one the service lists (ArcGIS layers and tables, OGC API collections, WFS feature types); fc_error_http_status and fc_error_service_code still give the answer that said so. A field a where clause names that the table lacks stays FC_E_INVALID_ARGUMENT. @since 1.3
class NotFoundError : public Error {
public:
    explicit NotFoundError(Error error) : Error(std::move(error)) {}
};

/// FC_E_PARSE: malformed JSON/XML, HTML instead of data, wrong document shape
class ParseError : public Error {
public:
    explicit ParseError(Error error) : Error(std::move(error)) {}
};

/// FC_E_PROTOCOL: the server broke HTTP or its protocol: a malformed or non-HTTP reply, a refused redirect (another scheme, https -> http, a loop), a link in a server document that cannot be followed. @since 0.6
class ProtocolError : public Error {
public:
    explicit ProtocolError(Error error) : Error(std::move(error)) {}
};

/// FC_E_SERVICE: the service's own error body, e.g. ArcGIS HTTP 200 + {"error":…}; see fc_error_service_code (ArcGIS 498: invalid or expired token, 499: token required)
class ServiceError : public Error {
public:
    explicit ServiceError(Error error) : Error(std::move(error)) {}
};

/// FC_E_STORAGE: the persisted cache could not be read or written: a corrupt file or one of a newer format (set aside, never read), a folder that cannot be written (no space, no permission). @since 1.3
class StorageError : public Error {
public:
    explicit StorageError(Error error) : Error(std::move(error)) {}
};

/// FC_E_TIMEOUT: a network timeout, or a wait that ran out of time
class TimeoutError : public Error {
public:
    explicit TimeoutError(Error error) : Error(std::move(error)) {}
};

/// FC_E_UNSUPPORTED: the service cannot do what was asked
class UnsupportedError : public Error {
public:
    explicit UnsupportedError(Error error) : Error(std::move(error)) {}
};

/// Throws failure as the class of its status (an Error for a status without one).
[[noreturn]] inline void throw_error(Error failure) {
    switch (failure.status()) {
    case FC_E_CANCELLED: throw CancelledError(std::move(failure));
    case FC_E_CONFLICT: throw ConflictError(std::move(failure));
    case FC_E_HTTP: throw HTTPError(std::move(failure));
    case FC_E_INVALID_ARGUMENT: throw InvalidArgumentError(std::move(failure));
    case FC_E_INVALID_STATE: throw InvalidStateError(std::move(failure));
    case FC_E_LIMIT: throw LimitError(std::move(failure));
    case FC_E_NETWORK: throw NetworkError(std::move(failure));
    case FC_E_NOT_FOUND: throw NotFoundError(std::move(failure));
    case FC_E_PARSE: throw ParseError(std::move(failure));
    case FC_E_PROTOCOL: throw ProtocolError(std::move(failure));
    case FC_E_SERVICE: throw ServiceError(std::move(failure));
    case FC_E_STORAGE: throw StorageError(std::move(failure));
    case FC_E_TIMEOUT: throw TimeoutError(std::move(failure));
    case FC_E_UNSUPPORTED: throw UnsupportedError(std::move(failure));
    default: throw failure;
    }
}
// END GENERATED error classes

/// Throws the Error of fc_last_error() when status is not FC_OK, as the class
/// of its status (a NotFoundError for FC_E_NOT_FOUND, and so on).
inline void check(fc_status status) {
    if (status == FC_OK) return;
    const fc_error *error = fc_last_error();
    Error failure = error && fc_error_code(error) == status ? Error::from(error) : Error(status, fc_status_name(status));
    throw_error(std::move(failure));
}

/// PROJ's accuracy in metres of the transformation the library uses from one
/// system to another (EPSG or Esri codes): 0 exact, -1 unknown.
inline double projection_accuracy(int32_t from_wkid, int32_t to_wkid) {
    double out = 0;
    check(fc_projection_accuracy(from_wkid, to_wkid, &out));
    return out;
}

// ---- callbacks ----------------------------------------------------------------

using CallbackErrorHandler = std::function<void(std::exception_ptr)>;

namespace detail {
struct HandlerSlot {
    std::mutex mutex;
    CallbackErrorHandler handler;
};
inline HandlerSlot &handler_slot() {
    static HandlerSlot slot;
    return slot;
}

/// Runs a user callback at the boundary with C: nothing it throws gets out.
template <class Function, class... Args>
void guarded_call(const Function &function, Args &&...args) noexcept {
    try {
        if (function) function(std::forward<Args>(args)...);
    } catch (...) {
        CallbackErrorHandler handler;
        {
            std::lock_guard<std::mutex> lock(handler_slot().mutex);
            handler = handler_slot().handler;
        }
        try {
            if (handler) {
                handler(std::current_exception());
            } else {
                try {
                    throw;
                } catch (const std::exception &error) {
                    std::fprintf(stderr, "featurecache: a callback threw: %s\n", error.what());
                } catch (...) {
                    std::fprintf(stderr, "featurecache: a callback threw a non-standard exception\n");
                }
            }
        } catch (...) {
            std::fprintf(stderr, "featurecache: the callback error handler threw\n");
        }
    }
}

/// Callables registered with the library as observers (C is given a pointer
/// to each as user_data), by token; destroyed after the handle that
/// registered them, whose free removes them from the library first.
template <class Callback>
struct ObserverList {
    std::mutex mutex;
    std::vector<std::pair<uint64_t, std::unique_ptr<Callback>>> entries;

    /// register_(callback pointer) registers it with the library and returns the token.
    template <class Register>
    uint64_t add(Callback callback, Register register_) {
        auto holder = std::make_unique<Callback>(std::move(callback));
        uint64_t token = register_(holder.get());
        std::lock_guard<std::mutex> lock(mutex);
        entries.emplace_back(token, std::move(holder));
        return token;
    }
    /// After the library removed it: lets the callable go.
    void forget(uint64_t token) {
        std::lock_guard<std::mutex> lock(mutex);
        for (auto it = entries.begin(); it != entries.end(); ++it) {
            if (it->first == token) {
                entries.erase(it);
                return;
            }
        }
    }
};

template <class T, void (*Free)(T *)>
struct Deleter {
    void operator()(T *pointer) const noexcept { Free(pointer); }
};
template <class T, void (*Free)(T *)>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

/// A handle from an fc_*_create-style call (the out-parameter last); throws its error.
template <class Handle, class Create>
Handle *created(Create create) {
    Handle *out = nullptr;
    check(create(&out));
    return out;
}

inline std::string owned_string(char *text) {
    std::string copy = text ? text : "";
    fc_string_free(text);
    return copy;
}
}  // namespace detail

/// Where exceptions thrown by callbacks go (they never reach the library): the
/// handler runs on the library thread that ran the callback, with the
/// exception; if it throws in turn, a line on stderr says so. An empty handler
/// restores the default: a line on stderr.
inline void set_callback_error_handler(CallbackErrorHandler handler) {
    std::lock_guard<std::mutex> lock(detail::handler_slot().mutex);
    detail::handler_slot().handler = std::move(handler);
}

using LoadCallback = std::function<void(const Error *error)>;  ///< nullptr when loaded
using StatusObserver = std::function<void(int32_t status)>;    ///< FC_LOAD_STATUS_*
/// A change of a table's cached features; the change is valid during the call.
using ChangeObserver = std::function<void(const fc_change &change)>;
using ProgressCallback = std::function<void(const fc_progress &progress)>;
using FeaturesChangedCallback = std::function<void(int64_t features)>;

// ---- loadables ------------------------------------------------------------------

/// The loadable side of a table, layer, map or service (borrowed from it).
/// Status observers belong to the owning object and end with it.
class Loadable {
public:
    /// Starts or joins the load; callback (optional) runs once when it settles.
    void load(LoadCallback callback = nullptr) { start(fc_loadable_load, std::move(callback)); }
    void retry_load(LoadCallback callback = nullptr) { start(fc_loadable_retry_load, std::move(callback)); }
    void cancel_load() { check(fc_loadable_cancel_load(loadable())); }

    int32_t load_status() const {
        int32_t status = 0;
        check(fc_loadable_load_status(loadable(), &status));
        return status;
    }
    /// The error the last load failed with; nullptr when it has not failed.
    std::unique_ptr<Error> load_error() const {
        const fc_error *out = nullptr;
        check(fc_loadable_load_error(loadable(), &out));
        return Error::copy_of(out);
    }

    /// Loads if needed and blocks until settled; throws the load's error, or
    /// Error(FC_E_TIMEOUT) when timeout_seconds (< 0: none) runs out.
    void wait(double timeout_seconds = -1) { check(fc_loadable_wait(loadable(), timeout_seconds)); }

    /// observer(status) for every later transition; returns its token.
    uint64_t add_status_observer(StatusObserver observer) {
        return observers_->add(std::move(observer), [&](StatusObserver *held) {
            uint64_t token = 0;
            check(fc_loadable_add_status_observer(loadable(), &status_trampoline, held, &token));
            return token;
        });
    }

    /// When this returns, the observer is not running and will not run again.
    void remove_status_observer(uint64_t token) {
        check(fc_loadable_remove_status_observer(loadable(), token));
        observers_->forget(token);
    }

protected:
    Loadable() : observers_(std::make_unique<detail::ObserverList<StatusObserver>>()) {}
    virtual ~Loadable() = default;
    Loadable(Loadable &&) noexcept = default;
    Loadable &operator=(Loadable &&) noexcept = default;
    virtual fc_loadable *loadable() const = 0;

private:
    // Destroyed after the owning class's handle (a member of the derived
    // class, so freed first): freeing the handle removes its observers.
    std::unique_ptr<detail::ObserverList<StatusObserver>> observers_;

    static void load_trampoline(fc_loadable *, const fc_error *error, void *user_data) noexcept {
        std::unique_ptr<LoadCallback> callback(static_cast<LoadCallback *>(user_data));  // called exactly once
        if (!error) return detail::guarded_call(*callback, nullptr);
        try {
            Error failure = Error::from(error);
            detail::guarded_call(*callback, &failure);
        } catch (...) {  // copying the message failed (no memory): the callback still runs
            detail::guarded_call(*callback, nullptr);
        }
    }

    static void status_trampoline(fc_loadable *, int32_t status, void *user_data) noexcept {
        detail::guarded_call(*static_cast<StatusObserver *>(user_data), status);
    }

    void start(fc_status (*function)(fc_loadable *, fc_load_callback, void *), LoadCallback callback) {
        if (!callback) return check(function(loadable(), nullptr, nullptr));
        auto holder = std::make_unique<LoadCallback>(std::move(callback));
        check(function(loadable(), &load_trampoline, holder.get()));
        holder.release();  // the trampoline owns it now
    }
};

// ---- context, query, result -------------------------------------------------------

/// An HTTP client: timeouts, headers, credentials. Tables made with it share it.
class Context {
public:
    Context() : handle_(detail::created<fc_context>(fc_context_create)) {}
    void set_timeouts(double connect_seconds, double total_seconds) {
        check(fc_context_set_timeouts(get(), connect_seconds, total_seconds));
    }
    void set_header(const std::string &name, const std::string &value) {
        check(fc_context_set_header(get(), name.c_str(), value.c_str()));
    }
    void set_token(const std::string &token, int32_t placement = FC_TOKEN_AS_HEADER) {
        check(fc_context_set_token(get(), token.c_str(), placement));
    }
    /// Keeps the cache of tables loaded afterwards in folder between runs (""
    /// turns it off); see fc_context_set_cache_folder.
    void set_cache_folder(const std::string &folder, double time_to_live_seconds = 0) {
        check(fc_context_set_cache_folder(get(), folder.empty() ? nullptr : folder.c_str(), time_to_live_seconds));
    }
    /// The bytes the folders under the cache folder may take together (0: no
    /// bound); see fc_context_set_cache_disk_budget.
    void set_cache_disk_budget(int64_t bytes) { check(fc_context_set_cache_disk_budget(get(), bytes)); }
    void set_cache_lock_wait(double seconds) { check(fc_context_set_cache_lock_wait(get(), seconds)); }
    void set_max_connections_per_host(int32_t count) { check(fc_context_set_max_connections_per_host(get(), count)); }
    void set_max_response_bytes(int64_t bytes) { check(fc_context_set_max_response_bytes(get(), bytes)); }
    void set_user_agent(const std::string &agent) { check(fc_context_set_user_agent(get(), agent.c_str())); }
    void clear_headers() { check(fc_context_clear_headers(get())); }
    void set_ca_file(const std::string &pem_file) { check(fc_context_set_ca_file(get(), pem_file.c_str())); }
    void set_ca_path(const std::string &directory) { check(fc_context_set_ca_path(get(), directory.c_str())); }
    void set_retry_policy(int32_t max_attempts, double base_delay_seconds, double max_delay_seconds) {
        check(fc_context_set_retry_policy(get(), max_attempts, base_delay_seconds, max_delay_seconds));
    }
    void set_low_speed_limit(int64_t bytes_per_second, double seconds) {
        check(fc_context_set_low_speed_limit(get(), bytes_per_second, seconds));
    }
    fc_work_limits work_limits() const {
        fc_work_limits out{};
        out.struct_size = sizeof out;
        check(fc_context_get_work_limits(get(), &out));
        return out;
    }
    void set_work_limits(const fc_work_limits &limits) { check(fc_context_set_work_limits(get(), &limits)); }
    fc_context *get() const noexcept { return handle_.get(); }

private:
    detail::Owned<fc_context, fc_context_free> handle_;
};

/// Query parameters.
class Query {
public:
    Query() : handle_(detail::created<fc_query>(fc_query_create)) {}
    explicit Query(fc_query *owned) noexcept : handle_(owned) {}
    Query &where(const std::string &clause) { return set(fc_query_set_where(get(), clause.c_str())); }
    Query &envelope(const fc_envelope &box) { return set(fc_query_set_envelope(get(), &box)); }
    Query &spatial_relationship(int32_t relationship) {
        return set(fc_query_set_spatial_relationship(get(), relationship));
    }
    Query &out_fields(const std::string &fields) { return set(fc_query_set_out_fields(get(), fields.c_str())); }
    Query &return_geometry(bool value) { return set(fc_query_set_return_geometry(get(), value)); }
    Query &max_features(int64_t count) { return set(fc_query_set_max_features(get(), count)); }
    Query &order_by(const std::string &order) { return set(fc_query_set_order_by(get(), order.c_str())); }
    Query &max_allowable_offset(double distance) { return set(fc_query_set_max_allowable_offset(get(), distance)); }
    /// The system results are given in (0: the table's).
    Query &out_spatial_reference(int32_t wkid) { return set(fc_query_set_out_spatial_reference(get(), wkid)); }
    Query &geometry(const uint8_t *wkb, size_t length, int32_t wkid = 0) {
        return set(fc_query_set_geometry_wkb(get(), wkb, length, wkid));
    }
    Query &relation_parameter(const std::string &pattern) {
        return set(fc_query_set_relation_parameter(get(), pattern.c_str()));
    }
    Query &result_offset(int64_t n) { return set(fc_query_set_result_offset(get(), n)); }
    Query &object_ids(const std::vector<int64_t> &ids) {
        return set(fc_query_set_object_ids(get(), ids.data(), ids.size()));
    }
    /// An independent copy of these parameters.
    Query copy() const {
        fc_query *out = nullptr;
        check(fc_query_copy(get(), &out));
        return Query(out);
    }
    fc_query *get() const noexcept { return handle_.get(); }

private:
    Query &set(fc_status status) {
        check(status);
        return *this;
    }
    detail::Owned<fc_query, fc_query_free> handle_;
};

/// Bytes borrowed from a Result (std::basic_string_view<uint8_t> would need
/// std::char_traits<uint8_t>, which the standard does not provide).
struct Bytes {
    const uint8_t *data = nullptr;
    size_t size = 0;
    bool empty() const noexcept { return size == 0; }
    const uint8_t *begin() const noexcept { return data; }
    const uint8_t *end() const noexcept { return data + size; }
};

/// Features a populate or query returned. Values borrowed from it (string_view,
/// WKB) live as long as the Result.
class Result {
public:
    explicit Result(fc_result *owned) noexcept : handle_(owned) {}

    int64_t size() const { return get_value<int64_t>(fc_result_count); }
    bool limit_exceeded() const { return get_value<bool>(fc_result_limit_exceeded); }
    /// False when an offline table answered a query its cache does not cover.
    bool is_complete() const { return get_value<bool>(fc_result_is_complete); }
    /// The system the geometries are in (0 when the table has none).
    int32_t wkid() const { return get_value<int32_t>(fc_result_wkid); }
    int32_t field_count() const { return get_value<int32_t>(fc_result_field_count); }
    std::string_view field_name(int32_t col) const { return get_value<const char *>(fc_result_field_name, col); }
    int32_t field_type(int32_t col) const { return get_value<int32_t>(fc_result_field_type, col); }
    /// The column of a field (case-insensitive), -1 when absent.
    int32_t field_index(const std::string &name) const {
        return get_value<int32_t>(fc_result_field_index, name.c_str());
    }
    bool is_null(int64_t row, int32_t col) const { return get_value<bool>(fc_result_is_null, row, col); }
    int64_t int64(int64_t row, int32_t col) const { return get_value<int64_t>(fc_result_get_int64, row, col); }
    double real(int64_t row, int32_t col) const { return get_value<double>(fc_result_get_double, row, col); }
    std::string_view text(int64_t row, int32_t col) const {
        return get_value<const char *>(fc_result_get_string, row, col);
    }
    int64_t object_id(int64_t row) const { return get_value<int64_t>(fc_result_object_id, row); }
    /// The row's geometry as ISO WKB (empty: none), borrowed from the Result.
    Bytes wkb(int64_t row) const {
        Bytes out;
        check(fc_result_geometry_wkb(get(), row, &out.data, &out.size));
        return out;
    }
    std::string to_geojson() const {
        char *text = nullptr;
        check(fc_result_to_geojson(get(), &text));
        return detail::owned_string(text);
    }
    /// Fills an Arrow C stream of the rows (see fc_result_get_arrow_stream).
    void arrow_stream(ArrowArrayStream *out) const { check(fc_result_get_arrow_stream(get(), out)); }
    fc_result *get() const noexcept { return handle_.get(); }

private:
    template <class T, class Function, class... Given>
    T get_value(Function function, Given... given) const {
        T out{};
        check(function(get(), given..., &out));
        return out;
    }
    detail::Owned<fc_result, fc_result_free> handle_;
};

// ---- operations -------------------------------------------------------------------

/// What a finished operation's callback sees (borrowed: valid during the call).
class OperationView {
public:
    explicit OperationView(fc_operation *operation) noexcept : operation_(operation) {}
    bool finished() const {
        bool out = false;
        check(fc_operation_is_finished(operation_, &out));
        return out;
    }
    fc_progress progress() const {
        fc_progress out{};
        out.struct_size = sizeof out;
        check(fc_operation_get_progress(operation_, &out));
        return out;
    }
    /// The features (once); throws the operation's error.
    Result take_result() const {
        fc_result *out = nullptr;
        check(fc_operation_take_result(operation_, &out));
        return Result(out);
    }
    int64_t count() const {
        int64_t out = 0;
        check(fc_operation_get_count(operation_, &out));
        return out;
    }
    fc_envelope extent() const {
        fc_envelope out{};
        check(fc_operation_get_extent(operation_, &out));
        return out;
    }
    /// The error it finished with; nullptr while running or when it succeeded.
    std::unique_ptr<Error> error() const {
        const fc_error *out = nullptr;
        check(fc_operation_get_error(operation_, &out));
        return Error::copy_of(out);
    }
    fc_operation *get() const noexcept { return operation_; }

protected:
    fc_operation *operation_;
};

using OperationCallback = std::function<void(OperationView finished)>;

/// A running populate, query or count (fc_operation). Destroying it does not
/// cancel it (cancel() does); the library keeps what the callback needs.
class Operation : public OperationView {
public:
    explicit Operation(fc_operation *owned) noexcept : OperationView(owned), handle_(owned) {}
    Operation(Operation &&other) noexcept : OperationView(other.operation_), handle_(std::move(other.handle_)) {
        other.operation_ = nullptr;
    }
    Operation &operator=(Operation &&other) noexcept {
        handle_ = std::move(other.handle_);
        operation_ = other.operation_;
        other.operation_ = nullptr;
        return *this;
    }
    /// Waits for the end (timeout_seconds < 0: none); false when time ran out.
    bool wait(double timeout_seconds = -1) const {
        fc_status status = fc_operation_wait(get(), timeout_seconds);
        if (status == FC_E_TIMEOUT) return false;
        check(status);
        return true;
    }
    void cancel() const { check(fc_operation_cancel(get())); }

private:
    detail::Owned<fc_operation, fc_operation_free> handle_;
};

namespace detail {
/// The callbacks of one operation; freed by the done trampoline, which runs once, last.
struct OperationCallbacks {
    OperationCallback done;
    ProgressCallback progress;

    static void done_trampoline(fc_operation *operation, void *user_data) noexcept {
        std::unique_ptr<OperationCallbacks> callbacks(static_cast<OperationCallbacks *>(user_data));
        guarded_call(callbacks->done, OperationView(operation));
    }
    static void progress_trampoline(const fc_progress *progress, void *user_data) noexcept {
        guarded_call(static_cast<const OperationCallbacks *>(user_data)->progress, *progress);
    }
};
}  // namespace detail

/// What a populate fetches, and how.
struct PopulateOptions {
    const Query *query = nullptr;   ///< nullptr: every feature
    bool clear_cache = true;        ///< false merges into the cache
    ProgressCallback progress;      ///< after each page, on a library thread
    bool resumable = false;         ///< keep pages to resume from (the C header's "Resumable populate")
};

// ---- tables -------------------------------------------------------------------------

/// A table of features from a service, and its cache.
/// The values and geometry of one add or update (fc_feature_edit). Setters
/// return *this, so an edit reads as one expression; values are checked when
/// the edit is given to a table.
class FeatureEdit {
public:
    FeatureEdit() : handle_(detail::created<fc_feature_edit>(fc_feature_edit_create)) {}
    FeatureEdit &set_null(const std::string &field) { return done(fc_feature_edit_set_null(get(), field.c_str())); }
    FeatureEdit &set(const std::string &field, int64_t value) { return done(fc_feature_edit_set_int64(get(), field.c_str(), value)); }
    FeatureEdit &set(const std::string &field, int value) { return set(field, static_cast<int64_t>(value)); }
    FeatureEdit &set(const std::string &field, double value) { return done(fc_feature_edit_set_double(get(), field.c_str(), value)); }
    FeatureEdit &set(const std::string &field, bool value) { return done(fc_feature_edit_set_bool(get(), field.c_str(), value)); }
    FeatureEdit &set(const std::string &field, const std::string &value) {
        return done(fc_feature_edit_set_string(get(), field.c_str(), value.c_str()));
    }
    FeatureEdit &set(const std::string &field, const char *value) { return set(field, std::string(value)); }
    /// ISO WKB, copied; wkid 0 = the table's spatial reference.
    FeatureEdit &geometry(const uint8_t *wkb, size_t length, int32_t wkid = 0) {
        return done(fc_feature_edit_set_geometry_wkb(get(), wkb, length, wkid));
    }
    FeatureEdit &clear_geometry() { return done(fc_feature_edit_clear_geometry(get())); }
    fc_feature_edit *get() const noexcept { return handle_.get(); }

private:
    FeatureEdit &done(fc_status status) {
        check(status);
        return *this;
    }
    detail::Owned<fc_feature_edit, fc_feature_edit_free> handle_;
};

/// One edit: pending (status = the last apply's refusal, FC_OK when none) or
/// what an apply did with it (FC_OK: applied).
struct EditResult {
    int64_t object_id = 0;         ///< the id the caller knows (negative for a local add)
    int64_t server_object_id = 0;  ///< the service's id once applied
    int32_t kind = 0;              ///< FC_EDIT_*
    fc_status status = FC_OK;
    int32_t service_code = 0;
    std::string message;
    std::string global_id;
    int32_t state = FC_EDIT_STATE_PENDING;  ///< FC_EDIT_STATE_*
    std::string server_id;                  ///< the service's own id as it writes it; "" for an add not applied
};

/// An apply that stopped part-way (no answer to a request, a cancel): results()
/// holds one EditResult per edit it was given - applied, refused, in doubt or
/// pending.
class ApplyError : public Error {
public:
    ApplyError(Error error, std::vector<EditResult> results) : Error(std::move(error)), results_(std::move(results)) {}
    const std::vector<EditResult> &results() const noexcept { return results_; }

private:
    std::vector<EditResult> results_;
};

namespace detail {
/// The entries of an fc_edit_list, which this frees.
inline std::vector<EditResult> edit_list(fc_edit_list *list) {
    Owned<fc_edit_list, fc_edit_list_free> owned(list);
    int64_t count = 0;
    check(fc_edit_list_count(list, &count));
    std::vector<EditResult> entries;
    entries.reserve(static_cast<size_t>(count));
    for (int64_t index = 0; index < count; index++) {
        fc_edit_info info{};
        info.struct_size = sizeof info;
        check(fc_edit_list_get(list, index, &info));
        entries.push_back({info.object_id, info.server_object_id, info.kind, info.status, info.service_code,
                           info.message ? info.message : "", info.global_id ? info.global_id : "", info.state,
                           info.server_id ? info.server_id : ""});
    }
    return entries;
}
}  // namespace detail

class Table : public Loadable {
public:
    explicit Table(fc_table *owned) noexcept : handle_(owned) {}
    Table(Table &&) noexcept = default;
    Table &operator=(Table &&) noexcept = default;

    static Table arcgis(const std::string &layer_url, const Context *context = nullptr) {
        return make([&](fc_table **out) { return fc_table_create_arcgis(ctx(context), layer_url.c_str(), out); });
    }
    static Table ogc(const std::string &api_url, const std::string &collection, const Context *context = nullptr) {
        return make([&](fc_table **out) {
            return fc_table_create_ogc(ctx(context), api_url.c_str(), collection.c_str(), out);
        });
    }
    static Table wfs(const std::string &service_url, const std::string &type_name, const Context *context = nullptr) {
        return make([&](fc_table **out) {
            return fc_table_create_wfs(ctx(context), service_url.c_str(), type_name.c_str(), out);
        });
    }
    /// A loaded table from any kind of URL (see fc_table_open); name may be empty.
    static Table open(const std::string &url, const std::string &name = "", const Context *context = nullptr) {
        return make([&](fc_table **out) {
            return fc_table_open(ctx(context), url.c_str(), name.empty() ? nullptr : name.c_str(), out);
        });
    }

    /// The table whose persisted cache is in table_folder, opened again and
    /// loaded (fc_table_open_cached).
    static Table open_cached(const std::string &table_folder, const Context *context = nullptr) {
        return make([&](fc_table **out) { return fc_table_open_cached(ctx(context), table_folder.c_str(), out); });
    }

    void set_request_mode(int32_t mode) { check(fc_table_set_request_mode(get(), mode)); }
    int32_t request_mode() const { return value<int32_t>(fc_table_request_mode); }
    int32_t service_kind() const { return value<int32_t>(fc_table_service_kind); }

    /// observer(change) once per later change of the cached features, in order,
    /// on a library thread (fc_table_add_change_observer); returns its token.
    uint64_t add_change_observer(ChangeObserver observer) {
        if (!changes_) changes_ = std::make_unique<detail::ObserverList<ChangeObserver>>();
        return changes_->add(std::move(observer), [&](ChangeObserver *held) {
            uint64_t token = 0;
            check(fc_table_add_change_observer(get(), &change_trampoline, held, &token));
            return token;
        });
    }
    /// When this returns, the observer is not called again, and every change
    /// made before has been told (fc_table_remove_change_observer).
    void remove_change_observer(uint64_t token) {
        check(fc_table_remove_change_observer(get(), token));
        if (changes_) changes_->forget(token);
    }

    /// The options this kind of table declares (fc_table_option_name), in order.
    std::vector<std::string> option_names() const {
        std::vector<std::string> names;
        for (int32_t i = 0, n = value<int32_t>(fc_table_option_count); i < n; ++i) {
            const char *name = nullptr;
            check(fc_table_option_name(get(), i, &name));
            names.emplace_back(name);
        }
        return names;
    }
    /// An option's value (fc_table_get_option); UnsupportedError for one not declared.
    std::string option(const std::string &name) const {
        char *text = nullptr;
        check(fc_table_get_option(get(), name.c_str(), &text));
        return detail::owned_string(text);
    }
    void set_option(const std::string &name, const std::string &value) {
        check(fc_table_set_option(get(), name.c_str(), value.c_str()));
    }
    std::string_view name() const { return value<const char *>(fc_table_name); }
    /// The table's CRS as PROJ writes it (FC_CRS_FORMAT_WKT2 or _PROJJSON);
    /// borrowed from the table.
    std::string_view spatial_reference_definition(int32_t format = FC_CRS_FORMAT_WKT2) const {
        const char *out = nullptr;
        check(fc_table_spatial_reference_definition(get(), format, &out));
        return out ? std::string_view(out) : std::string_view();
    }
    std::string_view url() const { return value<const char *>(fc_table_url); }
    std::string_view description() const { return value<const char *>(fc_table_description); }
    /// The values option `index` takes, comma-separated ("" for any text).
    std::string_view option_values(int32_t index) const { return indexed<const char *>(fc_table_option_values, index); }
    int32_t field_count() const { return value<int32_t>(fc_table_field_count); }
    std::string_view field_name(int32_t index) const { return indexed<const char *>(fc_table_field_name, index); }
    std::string_view field_alias(int32_t index) const { return indexed<const char *>(fc_table_field_alias, index); }
    int32_t field_type(int32_t index) const { return indexed<int32_t>(fc_table_field_type, index); }
    bool field_nullable(int32_t index) const { return indexed<bool>(fc_table_field_nullable, index); }
    int32_t field_length(int32_t index) const { return indexed<int32_t>(fc_table_field_length, index); }
    /// The index of a field by name; NotFoundError-free: throws InvalidArgumentError for none.
    int32_t field_index(const std::string &name) const {
        int32_t out = -1;
        check(fc_table_field_index(get(), name.c_str(), &out));
        return out;
    }
    int32_t geometry_type() const { return value<int32_t>(fc_table_geometry_type); }
    bool has_z() const { return value<bool>(fc_table_has_z); }
    bool has_m() const { return value<bool>(fc_table_has_m); }
    /// The table's wkid (first) and latest wkid (second).
    std::pair<int32_t, int32_t> spatial_reference() const {
        std::pair<int32_t, int32_t> out{0, 0};
        check(fc_table_spatial_reference(get(), &out.first, &out.second));
        return out;
    }
    void set_spatial_reference(int32_t wkid) { check(fc_table_set_spatial_reference(get(), wkid)); }
    void set_page_size(int32_t size) { check(fc_table_set_page_size(get(), size)); }
    fc_envelope extent() const { return value<fc_envelope>(fc_table_extent); }
    std::string_view object_id_field() const { return value<const char *>(fc_table_object_id_field); }
    std::string_view display_field() const { return value<const char *>(fc_table_display_field); }
    int64_t max_record_count() const { return value<int64_t>(fc_table_max_record_count); }
    double min_scale() const { return value<double>(fc_table_min_scale); }
    double max_scale() const { return value<double>(fc_table_max_scale); }
    void set_definition_expression(const std::string &where) {
        check(fc_table_set_definition_expression(get(), where.c_str()));
    }
    std::string definition_expression() const {
        char *text = nullptr;
        check(fc_table_definition_expression(get(), &text));
        return detail::owned_string(text);
    }
    void set_cache_budget(int64_t bytes) { check(fc_table_set_cache_budget(get(), bytes)); }
    int64_t cache_budget() const { return value<int64_t>(fc_table_cache_budget); }
    int64_t cached_bytes() const { return value<int64_t>(fc_table_cached_bytes); }
    fc_table_statistics statistics() const {
        fc_table_statistics out{};
        out.struct_size = sizeof out;
        check(fc_table_get_statistics(get(), &out));
        return out;
    }
    void reset_statistics() { check(fc_table_reset_statistics(get())); }
    int64_t cached_feature_count() const { return value<int64_t>(fc_table_cached_feature_count); }
    void clear_cache() { check(fc_table_clear_cache(get())); }

    /// Fetches into the cache and returns the features; atomic (on error the
    /// cache is as it was, and the Error is thrown).
    Result populate(const PopulateOptions &options = {}) {
        detail::OperationCallbacks callbacks{nullptr, options.progress};
        fc_populate_options c = c_options(options, &callbacks);
        fc_result *out = nullptr;
        check(fc_table_populate(get(), &c, &out));
        return Result(out);
    }

    /// Starts a populate; done (optional) runs once on a library thread.
    Operation populate_async(const PopulateOptions &options = {}, OperationCallback done = nullptr) {
        return started({std::move(done), options.progress}, [&](detail::OperationCallbacks *callbacks, fc_operation **out) {
            fc_populate_options c = c_options(options, callbacks);
            return fc_table_populate_start(get(), &c, &detail::OperationCallbacks::done_trampoline, callbacks, out);
        });
    }

    /// Starts a query, a count or an extent; done (optional) runs once on a library thread.
    Operation query_async(const Query *query = nullptr, OperationCallback done = nullptr) {
        return start(fc_table_query_start, query, std::move(done));
    }
    Operation query_count_async(const Query *query = nullptr, OperationCallback done = nullptr) {
        return start(fc_table_query_count_start, query, std::move(done));
    }
    Operation query_extent_async(const Query *query = nullptr, OperationCallback done = nullptr) {
        return start(fc_table_query_extent_start, query, std::move(done));
    }
    /// The envelope of the features matching query (all NaN when none match).
    fc_envelope query_extent(const Query *query = nullptr) {
        fc_envelope out{};
        check(fc_table_query_extent(get(), query ? query->get() : nullptr, &out));
        return out;
    }

    /// The features matching query: the cache or the service, by request mode.
    Result query(const Query *query = nullptr) {
        fc_result *out = nullptr;
        check(fc_table_query(get(), query ? query->get() : nullptr, &out));
        return Result(out);
    }
    int64_t query_count(const Query *query = nullptr) {
        int64_t out = 0;
        check(fc_table_query_count(get(), query ? query->get() : nullptr, &out));
        return out;
    }

    /// Fills an Arrow C stream of the features matching query, read from the
    /// service page by page as it is pulled (see fc_table_open_arrow_stream;
    /// batch_rows > 0: batches of that many rows, 0: one per page); the
    /// caller releases it (out->release(out)), which cancels what is in flight.
    void open_arrow_stream(ArrowArrayStream *out, const Query *query = nullptr, int32_t prefetch_pages = 2,
                           int64_t batch_rows = 0) {
        fc_arrow_stream_options options{};
        check(fc_arrow_stream_options_init(&options, sizeof options));
        options.query = query ? query->get() : nullptr;
        options.prefetch_pages = prefetch_pages;
        options.batch_rows = batch_rows;
        check(fc_table_open_arrow_stream(get(), &options, out));
    }
    // ---- editing (fc_table_add_feature and the rest) ----

    bool can_edit(int32_t kind) const {
        bool out = false;
        check(fc_table_can_edit(get(), kind, &out));
        return out;
    }
    /// Adds a feature locally; returns its local (negative) object id.
    int64_t add_feature(const FeatureEdit &edit) {
        int64_t out = 0;
        check(fc_table_add_feature(get(), edit.get(), &out));
        return out;
    }
    void update_feature(int64_t object_id, const FeatureEdit &edit) { check(fc_table_update_feature(get(), object_id, edit.get())); }
    void delete_feature(int64_t object_id) { check(fc_table_delete_feature(get(), object_id)); }
    /// Undoes the pending edits of these features (all when empty); returns how many.
    int64_t undo_edits(const std::vector<int64_t> &object_ids = {}) {
        int64_t out = 0;
        check(fc_table_undo_edits(get(), object_ids.empty() ? nullptr : object_ids.data(), object_ids.size(), &out));
        return out;
    }
    /// This table's cache folder, before load (time_to_live_seconds < 0: the context's).
    void set_cache_folder(const std::string &folder, double time_to_live_seconds = -1) {
        check(fc_table_set_cache_folder(get(), folder.empty() ? nullptr : folder.c_str(), time_to_live_seconds));
    }
    /// Stale-while-revalidate, before load (fc_table_set_background_revalidation).
    void set_background_revalidation(bool background) { check(fc_table_set_background_revalidation(get(), background)); }
    /// Where the persisted cache stands (its strings borrowed from the table).
    fc_cache_info cache_info() const {
        fc_cache_info info{};
        info.struct_size = sizeof info;
        check(fc_table_get_cache_info(get(), &info));
        return info;
    }
    /// Writes the cache to its folder now, synced (fc_table_flush_cache).
    void flush_cache() { check(fc_table_flush_cache(get())); }
    bool has_local_edits() const { return value<bool>(fc_table_has_local_edits); }
    std::vector<EditResult> local_edits() const {
        fc_edit_list *out = nullptr;
        check(fc_table_get_local_edits(get(), &out));
        return detail::edit_list(out);
    }
    /// Applies the pending edits: one result per pending edit (refused ones
    /// stay pending). Throws ApplyError, carrying every edit's outcome, when a
    /// request got no answer.
    std::vector<EditResult> apply_edits(bool rollback_on_failure = true) {
        fc_apply_options options;
        check(fc_apply_options_init(&options, sizeof options));
        options.rollback_on_failure = rollback_on_failure;
        fc_edit_list *out = nullptr;
        fc_status status = fc_table_apply_edits(get(), &options, &out);
        if (status != FC_OK) {
            const fc_error *error = fc_last_error();
            Error failure = error && fc_error_code(error) == status ? Error::from(error) : Error(status, fc_status_name(status));
            throw ApplyError(std::move(failure), out ? detail::edit_list(out) : std::vector<EditResult>{});
        }
        return detail::edit_list(out);
    }
    /// Pending edits up, the service's changes down (fc_table_synchronize):
    /// what it did. Throws Error when it stopped part-way (the cache is as
    /// it was before the step that failed).
    fc_sync_result synchronize(bool upload = true, bool rollback_on_failure = true) {
        fc_sync_options options;
        check(fc_sync_options_init(&options, sizeof options));
        options.upload = upload;
        options.rollback_on_failure = rollback_on_failure;
        fc_sync_result out{};
        out.struct_size = sizeof out;
        check(fc_table_synchronize(get(), &options, &out));
        return out;
    }
    /// The service's own id of a cached feature, as the service writes it.
    std::string server_id(int64_t object_id) const {
        char *out = nullptr;
        check(fc_table_get_server_id(get(), object_id, &out));
        std::string text(out ? out : "");
        fc_string_free(out);
        return text;
    }

    fc_table *get() const noexcept { return handle_.get(); }

protected:
    fc_loadable *loadable() const override { return fc_table_as_loadable(get()); }

private:
    static fc_context *ctx(const Context *context) { return context ? context->get() : nullptr; }

    template <class Create>
    static Table make(Create create) {
        return Table(detail::created<fc_table>(create));
    }

    template <class T>
    T value(fc_status (*function)(const fc_table *, T *)) const {
        T out{};
        check(function(get(), &out));
        return out;
    }
    template <class T>
    T indexed(fc_status (*function)(const fc_table *, int32_t, T *), int32_t index) const {
        T out{};
        check(function(get(), index, &out));
        return out;
    }
    using Start = fc_status (*)(fc_table *, const fc_query *, fc_operation_callback, void *, fc_operation **);
    Operation start(Start function, const Query *query, OperationCallback done) {
        return started({std::move(done), {}}, [&](detail::OperationCallbacks *callbacks, fc_operation **out) {
            return function(get(), query ? query->get() : nullptr, &detail::OperationCallbacks::done_trampoline,
                            callbacks, out);
        });
    }
    /// Runs start(callbacks, &operation); on success the done trampoline owns the callbacks.
    template <class Start>
    static Operation started(detail::OperationCallbacks given, Start start) {
        auto callbacks = std::make_unique<detail::OperationCallbacks>(std::move(given));
        fc_operation *out = nullptr;
        check(start(callbacks.get(), &out));
        callbacks.release();
        return Operation(out);
    }

    static fc_populate_options c_options(const PopulateOptions &options, detail::OperationCallbacks *callbacks) {
        fc_populate_options c;
        check(fc_populate_options_init(&c, sizeof c));  // the macro's C cast would warn in C++
        c.query = options.query ? options.query->get() : nullptr;
        c.clear_cache = options.clear_cache;
        c.resumable = options.resumable;
        if (options.progress) {
            c.progress = &detail::OperationCallbacks::progress_trampoline;
            c.progress_user_data = callbacks;
        }
        return c;
    }

    static void change_trampoline(fc_table *, const fc_change *change, void *user_data) noexcept {
        detail::guarded_call(*static_cast<ChangeObserver *>(user_data), *change);
    }
    // Declared before the handle, so destroyed after it: freeing the handle
    // removes the observers (and waits for one running) before they go.
    std::unique_ptr<detail::ObserverList<ChangeObserver>> changes_;
    detail::Owned<fc_table, fc_table_free> handle_;
};

// ---- services ---------------------------------------------------------------------------

namespace detail {
/// What the three service classes share: the owned handle, its loadable side,
/// and tables made from it.
template <class Handle, void (*Free)(Handle *), fc_loadable *(*AsLoadable)(Handle *)>
class Service : public Loadable {
public:
    Handle *get() const noexcept { return handle_.get(); }

protected:
    template <class Create>
    explicit Service(Create create) : handle_(created<Handle>(create)) {}
    static fc_context *ctx(const Context *context) noexcept { return context ? context->get() : nullptr; }
    template <class Create>
    Table make_table(Create create) const {
        return Table(created<fc_table>(create));
    }
    fc_loadable *loadable() const override { return AsLoadable(get()); }

private:
    Owned<Handle, Free> handle_;
};
}  // namespace detail

/// One item a FeatureService offers (fc_service_item_*).
struct ServiceItem {
    std::string id;         ///< a layer id, collection id, feature type name
    std::string name;       ///< its name or title
    int32_t geometry_type;  ///< FC_GEOMETRY_TYPE_*, UNKNOWN where the listing does not say
};

/// Any service, opened from its URL alone (fc_service): its kind, its items and
/// a table on each, whatever the protocol. Immutable: usable from any thread.
class FeatureService {
public:
    /// Opens url (blocking; fc_service_open); throws its error.
    static FeatureService open(const std::string &url, const Context *context = nullptr) {
        return FeatureService(detail::created<fc_service>([&](fc_service **out) {
            return fc_service_open(context ? context->get() : nullptr, url.c_str(), out);
        }));
    }
    int32_t kind() const { return value<int32_t>(fc_service_kind); }
    std::string title() const { return value<const char *>(fc_service_title); }
    std::vector<ServiceItem> items() const {
        std::vector<ServiceItem> items;
        for (int32_t i = 0, n = value<int32_t>(fc_service_item_count); i < n; ++i) {
            const char *id = nullptr, *name = nullptr;
            int32_t geometry = 0;
            check(fc_service_item_id(get(), i, &id));
            check(fc_service_item_name(get(), i, &name));
            check(fc_service_item_geometry_type(get(), i, &geometry));
            items.push_back(ServiceItem{id, name, geometry});
        }
        return items;
    }
    /// A table, not yet loaded, on the item name names (its id or name); "" for the only one.
    Table table(const std::string &name = "") const {
        return Table(detail::created<fc_table>([&](fc_table **out) {
            return fc_service_create_table(get(), name.empty() ? nullptr : name.c_str(), out);
        }));
    }
    fc_service *get() const noexcept { return handle_.get(); }

private:
    explicit FeatureService(fc_service *owned) noexcept : handle_(owned) {}
    template <class T>
    T value(fc_status (*function)(const fc_service *, T *)) const {
        T out{};
        check(function(get(), &out));
        return out;
    }
    detail::Owned<fc_service, fc_service_free> handle_;
};

/// An ArcGIS REST feature or map service: lists its layers, makes tables on them.
class ArcGISService
    : public detail::Service<fc_arcgis_service, fc_arcgis_service_free, fc_arcgis_service_as_loadable> {
public:
    explicit ArcGISService(const std::string &url, const Context *context = nullptr)
        : Service([&](fc_arcgis_service **out) { return fc_arcgis_service_create(ctx(context), url.c_str(), out); }) {}
    int32_t layer_count() const {
        int32_t out = 0;
        check(fc_arcgis_service_layer_count(get(), &out));
        return out;
    }
    Table table(int32_t layer_id) const {
        return make_table([&](fc_table **out) { return fc_arcgis_service_create_table(get(), layer_id, out); });
    }
};

/// An OGC API - Features landing page: lists collections, makes tables on them.
class OGCService : public detail::Service<fc_ogc_service, fc_ogc_service_free, fc_ogc_service_as_loadable> {
public:
    explicit OGCService(const std::string &api_url, const Context *context = nullptr)
        : Service([&](fc_ogc_service **out) { return fc_ogc_service_create(ctx(context), api_url.c_str(), out); }) {}
    Table table(const std::string &collection) const {
        return make_table([&](fc_table **out) { return fc_ogc_service_create_table(get(), collection.c_str(), out); });
    }
};

/// A WFS endpoint: negotiates the version, lists feature types, makes tables.
class WFSService : public detail::Service<fc_wfs_service, fc_wfs_service_free, fc_wfs_service_as_loadable> {
public:
    explicit WFSService(const std::string &url, const Context *context = nullptr)
        : Service([&](fc_wfs_service **out) { return fc_wfs_service_create(ctx(context), url.c_str(), out); }) {}
    Table table(const std::string &type_name) const {
        return make_table([&](fc_table **out) { return fc_wfs_service_create_table(get(), type_name.c_str(), out); });
    }
};

// ---- layers and maps -------------------------------------------------------------------

/// A layer showing one table (a strong load dependency on it).
class Layer : public Loadable {
public:
    explicit Layer(const Table &table)
        : handle_(detail::created<fc_layer>([&](fc_layer **out) { return fc_layer_create(table.get(), out); })) {}
    Layer(Layer &&) noexcept = default;
    Layer &operator=(Layer &&) noexcept = default;

    /// callback(features) after each change of the table's cache by a fetch;
    /// nullptr removes it. When this returns the previous one is not running.
    void on_features_changed(FeaturesChangedCallback callback) {
        std::unique_ptr<FeaturesChangedCallback> holder;
        if (callback) holder = std::make_unique<FeaturesChangedCallback>(std::move(callback));
        check(fc_layer_set_features_changed_callback(get(), holder ? &changed_trampoline : nullptr, holder.get()));
        changed_ = std::move(holder);  // the previous one is done with
    }
    void set_min_scale(double scale) { check(fc_layer_set_min_scale(get(), scale)); }
    void set_max_scale(double scale) { check(fc_layer_set_max_scale(get(), scale)); }
    double min_scale() const { return value(fc_layer_min_scale); }
    double max_scale() const { return value(fc_layer_max_scale); }
    void set_definition_expression(const std::string &where) {
        check(fc_layer_set_definition_expression(get(), where.c_str()));
    }
    fc_layer *get() const noexcept { return handle_.get(); }

protected:
    fc_loadable *loadable() const override { return fc_layer_as_loadable(get()); }

private:
    double value(fc_status (*function)(const fc_layer *, double *)) const {
        double out = 0;
        check(function(get(), &out));
        return out;
    }
    static void changed_trampoline(fc_layer *, int64_t features, void *user_data) noexcept {
        detail::guarded_call(*static_cast<FeaturesChangedCallback *>(user_data), features);
    }
    // Declared before the handle: destroyed after it (freeing the layer removes the callback).
    std::unique_ptr<FeaturesChangedCallback> changed_;
    detail::Owned<fc_layer, fc_layer_free> handle_;
};

/// A map of layers and its visible extent (a weak load dependency on its layers).
class Map : public Loadable {
public:
    Map() : handle_(detail::created<fc_map>(fc_map_create)) {}
    void add_layer(const Layer &layer) { check(fc_map_add_layer(get(), layer.get())); }
    void set_visible_extent(const fc_envelope &extent, double scale) {
        check(fc_map_set_visible_extent(get(), &extent, scale));
    }
    /// Blocks until no view fetch is under way; false when time ran out.
    bool wait_idle(double timeout_seconds = -1) {
        fc_status status = fc_map_wait_idle(get(), timeout_seconds);
        if (status == FC_E_TIMEOUT) return false;
        check(status);
        return true;
    }
    int32_t layer_count() const {
        int32_t out = 0;
        check(fc_map_layer_count(get(), &out));
        return out;
    }
    void set_buffer_factor(double factor) { check(fc_map_set_buffer_factor(get(), factor)); }
    double buffer_factor() const {
        double out = 0;
        check(fc_map_buffer_factor(get(), &out));
        return out;
    }
    fc_map *get() const noexcept { return handle_.get(); }

protected:
    fc_loadable *loadable() const override { return fc_map_as_loadable(get()); }

private:
    detail::Owned<fc_map, fc_map_free> handle_;
};

}  // namespace featurecache

// BEGIN GENERATED unwrapped functions (scripts/gen-contract.py)
// C functions not wrapped here, and why (checked by scripts/gen-contract.py: every
// other function of featurecache.h is called by a wrapper):
//   C++ calls the C functions (and the FC_VERSION_* macros) as they are:
//     fc_version, fc_version_number
//   errors arrive as exceptions; there is no last error to clear:
//     fc_clear_last_error
//   a request log is a C callback; featurecache::Context has no callback members yet:
//     fc_context_set_request_observer
//   C++ opens with the blocking Table::open and FeatureService::open (or load() with a callback on a created Table); no asynchronous open yet:
//     fc_table_open_start, fc_service_open_start, fc_operation_take_service,
//     fc_operation_take_table, fc_table_open_cached_start
//   a protocol's own spelling (C only): the C++ classes wrap the generic fc_table_*, fc_service_* and option calls:
//     fc_arcgis_service_description, fc_arcgis_service_version, fc_arcgis_service_layer_id,
//     fc_arcgis_service_layer_name, fc_arcgis_service_layer_geometry_type,
//     fc_arcgis_service_layer_is_table, fc_ogc_service_title, fc_ogc_service_collection_count,
//     fc_ogc_service_collection_id, fc_ogc_service_collection_title, fc_ogc_service_conforms_to,
//     fc_wfs_service_title, fc_wfs_service_version, fc_wfs_service_feature_type_count,
//     fc_wfs_service_feature_type_name, fc_wfs_service_feature_type_title, fc_table_as_arcgis,
//     fc_arcgis_table_supports_pagination, fc_arcgis_table_capabilities,
//     fc_arcgis_table_supported_query_formats, fc_arcgis_table_service_version,
//     fc_arcgis_table_set_query_format, fc_arcgis_table_query_format,
//     fc_arcgis_table_query_format_in_use, fc_table_as_ogc, fc_ogc_table_set_query_language,
//     fc_ogc_table_query_language, fc_table_as_wfs, fc_wfs_table_set_axis_order,
//     fc_wfs_table_axis_order, fc_wfs_table_set_filter_axis_order,
//     fc_wfs_table_filter_axis_order, fc_wfs_table_set_output_format,
//     fc_wfs_table_output_format, fc_wfs_table_populate_xml_start, fc_wfs_table_populate_xml
//   Table::apply_edits blocks; an asynchronous apply for C++ is not written yet:
//     fc_table_apply_edits_start, fc_operation_take_edit_list
//   Table::synchronize blocks; an asynchronous synchronize for C++ is not written yet:
//     fc_table_synchronize_start, fc_operation_get_sync_result
// END GENERATED unwrapped functions

#endif  // FEATURECACHE_HPP
