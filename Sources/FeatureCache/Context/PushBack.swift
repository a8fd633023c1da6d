// SPDX-License-Identifier: Apache-2.0
/// Who wants to hear that a server pushed back (429, 503 and other answers the
/// retry loop waits out): a task-local listener the transport's retry loop
/// calls, so the layer that pages (a paging window, which narrows) is told
/// without the transport knowing it exists.
enum PushBack {
    @TaskLocal static var listener: (@Sendable () -> Void)?
}
