// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Who wants to hear that a server pushed back (429, 503 and other answers the
/// retry loop waits out): a task-local listener the transport's retry loop
/// tells, so the layer that pages (a paging window, which narrows) hears it
/// without the transport knowing that layer exists.
package protocol PushBackListener: AnyObject, Sendable {
    func pushedBack()
}

package enum PushBack {
    /// The listener of the request running in this task, if any.
    @TaskLocal package static var listener: (any PushBackListener)?
}
