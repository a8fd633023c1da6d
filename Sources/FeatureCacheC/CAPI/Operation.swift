// SPDX-License-Identifier: Apache-2.0
import CFeatureCacheABI
import FeatureCache

/// What an operation produced, kept until the caller takes it.
enum OperationValue: Sendable {
    case features(FeatureResult)
    case count(Int)
    case extent(Envelope?, wkid: Int32)
    case table(FeatureTable)
    case service(FeatureService)
    case edits([EditResult])
    case sync(SyncReport)
}

/// An `fc_operation`: the core operation, its progress, and its outcome until
/// taken. The handle stays registered until both the caller has freed it and the
/// completion callback has returned, so the callback may use it after an early
/// `fc_operation_free`.
final class COperation: @unchecked Sendable {
    private struct State {
        var work: FeatureOperation?
        var progress = FetchProgress(pages: 0, features: 0)
        var outcome: Result<OperationValue, FeatureCacheError>?
        /// What a failed operation still hands over (an apply's outcomes).
        var partial: OperationValue?
        var error: ErrorBox?
        var resultTaken = false
        var callerReleased = false
        var callbackReturned = false
    }

    private let state = Locked(State())
    private(set) var pointer: OpaquePointer?

    /// Starts `work` and registers the handle, which the caller holds until
    /// `release`.
    static func start(
        callback: fc_operation_callback?, userData: UnsafeMutableRawPointer?,
        _ work: @escaping @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue
    ) -> COperation {
        let operation = COperation()
        let pointer = Handles.export(Handle(.operation, operation))
        operation.pointer = pointer
        let userBox = UserData(userData)
        let handle = UserData(UnsafeMutableRawPointer(pointer))
        let running = FeatureOperation(
            { () async throws(FeatureCacheError) -> OperationValue in
                try await work(operation)
            },
            completion: { outcome in
                operation.finish(outcome)
                if let callback { callback(OpaquePointer(handle.pointer), userBox.pointer) }
                operation.callbackDidReturn()
            })
        operation.state.withLock { $0.work = running }
        return operation
    }

    /// A progress report for the core, kept here and forwarded to `callback`.
    func progressReporter(_ callback: fc_progress_callback?, _ userData: UserData) -> PopulateProgress {
        { [weak self] progress in
            self?.state.withLock { $0.progress = progress }
            guard let callback else { return }
            var report = fc_progress(progress)
            callback(&report, userData.pointer)
        }
    }

    private func finish(_ outcome: Result<OperationValue, FeatureCacheError>) {
        state.withLock { state in
            state.outcome = outcome
            if case let .failure(error) = outcome { state.error = ErrorBox(error) }
        }
    }

    private func callbackDidReturn() {
        let unregister = state.withLock { state in
            state.callbackReturned = true
            return state.callerReleased
        }
        if unregister, let pointer { _ = Handles.take(pointer, .operation) }
    }

    /// `fc_operation_free`: the caller lets go; the handle goes now, or after the callback.
    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        guard let operation = try? Handles.borrow(pointer, .operation, as: COperation.self, "operation") else {
            _ = Handles.take(pointer, .operation)  // reports the double free
            return
        }
        let unregister = operation.state.withLock { state in
            guard !state.callerReleased else { return false }
            state.callerReleased = true
            return state.callbackReturned
        }
        if unregister { _ = Handles.take(pointer, .operation) }
    }

    var work: FeatureOperation? { state.withLock { $0.work } }
    var isFinished: Bool { state.withLock { $0.callbackReturned } }
    var progress: FetchProgress { state.withLock { $0.progress } }

    /// Keeps what the operation hands over although it is about to fail.
    func keepPartial(_ value: OperationValue) {
        state.withLock { $0.partial = value }
    }

    /// The error the operation finished with (nil: succeeded); throws while it runs.
    func error() throws(FeatureCacheError) -> ErrorBox? {
        try state.withLock { (state) throws(FeatureCacheError) -> ErrorBox? in
            guard state.outcome != nil else { throw Self.running }
            return state.error
        }
    }

    /// What the operation produced, as `extract` reads it: the operation's own
    /// error when it failed, `.invalidState` while it runs, `.invalidArgument`
    /// (`wrongKind`) when it produced another kind of value. Values that become a
    /// handle of the caller's (features, a table) are handed over once.
    func take<T>(_ extract: (OperationValue) -> T?, wrongKind: String, partialToo: Bool = false) throws(FeatureCacheError) -> T {
        try state.withLock { (state) throws(FeatureCacheError) -> T in
            guard let outcome = state.outcome else { throw Self.running }
            let value: OperationValue
            switch outcome {
            case let .success(success): value = success
            case let .failure(error):
                guard partialToo, let partial = state.partial else { throw error }
                value = partial
            }
            guard let extracted = extract(value) else { throw FeatureCacheError(.invalidArgument, wrongKind) }
            if value.isHandedOver {
                guard !state.resultTaken else {
                    throw FeatureCacheError(.invalidState, "the operation's result was taken already")
                }
                state.resultTaken = true
            }
            return extracted
        }
    }

    private static let running = FeatureCacheError(.invalidState, "the operation has not finished yet (fc_operation_wait, or its callback)")
}

extension OperationValue {
    /// Values that become a handle the caller owns: handed over once.
    var isHandedOver: Bool {
        switch self {
        case .features, .table, .service, .edits: true
        case .count, .extent, .sync: false
        }
    }

    // Each kind of value, or nil for the others (for `COperation.take`).
    var features: FeatureResult? { if case let .features(result) = self { result } else { nil } }
    var table: FeatureTable? { if case let .table(table) = self { table } else { nil } }
    var service: FeatureService? { if case let .service(service) = self { service } else { nil } }
    var count: Int? { if case let .count(count) = self { count } else { nil } }
    /// An apply's outcomes, or those of a synchronize's apply.
    var edits: [EditResult]? {
        switch self {
        case let .edits(edits): edits
        case let .sync(report): report.edits
        default: nil
        }
    }
    var sync: SyncReport? { if case let .sync(report) = self { report } else { nil } }
    var extent: fc_envelope? { if case let .extent(extent, wkid) = self { fc_envelope(extent, wkid: wkid) } else { nil } }
}

/// A C user-data pointer carried to a library thread.
struct UserData: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

extension fc_progress {
    init(_ progress: FetchProgress) {
        self.init(
            struct_size: UInt32(MemoryLayout<fc_progress>.size), pages: Int64(progress.pages),
            features: Int64(progress.features), total_features: progress.totalFeatures.map(Int64.init) ?? -1)
    }
}

func operation(_ pointer: OpaquePointer?) throws(FeatureCacheError) -> COperation {
    try Handles.borrow(pointer, .operation, as: COperation.self, "operation")
}

/// Starts an operation for a `_start` function: checks `out`, starts, stores the handle.
func startOperation(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ callback: fc_operation_callback?,
    _ userData: UnsafeMutableRawPointer?,
    _ prepare: () throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue
) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let work = try prepare()
        out.pointee = COperation.start(callback: callback, userData: userData, work).pointer
    }
}

/// Runs an operation to its end on the calling thread (the blocking conveniences
/// named `name`) and returns what `extract` reads of its value; its error is thrown.
func runOperation<T>(
    _ name: String, _ extract: (OperationValue) -> T?, partial: ((T) -> Void)? = nil,
    _ prepare: () throws(FeatureCacheError) -> @Sendable (COperation) async throws(FeatureCacheError) -> OperationValue
) throws(FeatureCacheError) -> T {
    try CallbackScope.checkMayBlock(name)
    let work = try prepare()
    let operation = COperation.start(callback: nil, userData: nil, work)
    defer { COperation.release(operation.pointer) }
    _ = try operation.work?.wait()
    do {
        return try operation.take(extract, wrongKind: "\(name) produced another kind of value")
    } catch {
        // A failed operation may still hand something over (an apply's outcomes).
        if let partial, let value = try? operation.take(extract, wrongKind: "", partialToo: true) { partial(value) }
        throw error
    }
}

@_cdecl("fc_operation_cancel")
public func fcOperationCancel(_ pointer: OpaquePointer?) -> Int32 {
    status { () throws(FeatureCacheError) in try operation(pointer).work?.cancel() }
}

@_cdecl("fc_operation_wait")
public func fcOperationWait(_ pointer: OpaquePointer?, _ timeout: Double) -> Int32 {
    status { () throws(FeatureCacheError) in
        guard !timeout.isNaN else { throw FeatureCacheError(.invalidArgument, "timeout_seconds is NaN") }
        let operation = try operation(pointer)
        guard try operation.work?.wait(timeout: timeout) ?? false else {
            throw FeatureCacheError(.timeout, "the operation did not finish within \(timeout) s")
        }
    }
}

@_cdecl("fc_operation_is_finished")
public func fcOperationIsFinished(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try operation(pointer).isFinished
    }
}

@_cdecl("fc_operation_get_progress")
public func fcOperationGetProgress(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_progress>?) -> Int32 {
    status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        let size = try CArguments.versionedSize(out, fc_progress.self, "fc_progress")
        var progress = fc_progress(try operation(pointer).progress)
        progress.struct_size = UInt32(min(size, MemoryLayout<fc_progress>.size))
        CArguments.copyVersioned(&progress, to: out, size: size)
    }
}

@_cdecl("fc_operation_get_error")
public func fcOperationGetError(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(FeatureCacheError) in
        let out = try CArguments.output(out)
        out.pointee = try operation(pointer).error()?.pointer
    }
}

@_cdecl("fc_operation_take_result")
public func fcOperationTakeResult(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        exportResult(
            try operation(pointer).take(\.features, wrongKind: "the operation produces no features (fc_operation_get_count or _get_extent)")
        )
    }
}

@_cdecl("fc_operation_take_table")
public func fcOperationTakeTable(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        Handles.export(
            Handle(.table, try operation(pointer).take(\.table, wrongKind: "the operation does not open a table (fc_table_open_start)")))
    }
}

@_cdecl("fc_operation_take_service")
public func fcOperationTakeService(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return output(out) { () throws(FeatureCacheError) in
        Handles.export(
            Handle(
                .service, try operation(pointer).take(\.service, wrongKind: "the operation does not open a service (fc_service_open_start)")
            ))
    }
}

@_cdecl("fc_operation_get_count")
public func fcOperationGetCount(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    out?.pointee = -1
    return output(out) { () throws(FeatureCacheError) in
        Int64(try operation(pointer).take(\.count, wrongKind: "the operation is not a count (fc_table_query_count_start)"))
    }
}

@_cdecl("fc_operation_get_extent")
public func fcOperationGetExtent(_ pointer: OpaquePointer?, _ out: UnsafeMutablePointer<fc_envelope>?) -> Int32 {
    out?.pointee = fc_envelope(nil, wkid: 0)
    return output(out) { () throws(FeatureCacheError) in
        try operation(pointer).take(\.extent, wrongKind: "the operation is not an extent (fc_table_query_extent_start)")
    }
}

@_cdecl("fc_operation_free")
public func fcOperationFree(_ pointer: OpaquePointer?) {
    COperation.release(pointer)
}

extension fc_envelope {
    /// The C envelope of `extent`; NaN coordinates (and the table's wkid) for none.
    init(_ extent: Envelope?, wkid: Int32) {
        if let extent {
            self.init(
                xmin: extent.xmin, ymin: extent.ymin, xmax: extent.xmax, ymax: extent.ymax,
                wkid: extent.spatialReference?.effectiveWkid ?? wkid)
        } else {
            self.init(xmin: .nan, ymin: .nan, xmax: .nan, ymax: .nan, wkid: wkid)
        }
    }
}
