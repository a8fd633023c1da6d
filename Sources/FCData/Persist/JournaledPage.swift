// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A page a pager took, as a resumable populate keeps it on disk until the
/// populate completes (`populate.fcj`, FILE-FORMAT.md): its features and
/// what it said of the pages after it, so that a populate resumed later
/// replays it and pages on exactly as the first run did.
package protocol JournaledPage {
    func write(to out: inout BinaryWriter)
    static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> Self
}
