// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// The rows of an ordered query's window as the pieces of its result.
/// Consecutive rows of one batch share a piece, as they come. An order that
/// scatters the rows (a key the store's spatial order does not follow: a
/// million rows by a value would be close to a million one-row pieces, each a
/// part every accessor, export and record batch walks) has them copied
/// instead, in order, into new batches of one layout: a few parts, read as
/// fast as the cache's own.
enum OrderedWindow {
    /// Runs this short on average, or shorter, are copied.
    static let shortRun = 64

    static func pieces(_ window: [RowAddress], of batches: [FeatureBatch]) -> [(batch: FeatureBatch, rows: [UInt32]?)] {
        var runs = 0, previous = -1
        for address in window where address.part != previous {
            runs += 1
            previous = address.part
        }
        guard runs > 1, window.count >= 2 * shortRun, runs * shortRun > window.count else { return byRuns(window[...], batches) }
        // One layout per group of batches; the window is gathered stretch by
        // stretch of rows whose batches share one.
        var layouts: [Int] = []  // the first batch of each layout
        var layoutOf = [Int](repeating: -1, count: batches.count), placeInLayout = [Int](repeating: 0, count: batches.count)
        var members: [[FeatureBatch]] = []
        for address in window where layoutOf[address.part] < 0 {
            let batch = batches[address.part]
            if let known = layouts.firstIndex(where: { batches[$0].hasLayout(of: batch) }) {
                layoutOf[address.part] = known
            } else {
                layoutOf[address.part] = layouts.count
                layouts.append(address.part)
                members.append([])
            }
            placeInLayout[address.part] = members[layoutOf[address.part]].count
            members[layoutOf[address.part]].append(batch)
        }
        var pieces: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        var start = 0
        while start < window.count {
            let layout = layoutOf[window[start].part]
            var end = start + 1
            while end < window.count, layoutOf[window[end].part] == layout { end += 1 }
            let stretch = window[start..<end]
            if stretch.count < 2 * shortRun {
                pieces += byRuns(stretch, batches)
            } else {
                for chunk in chunks(stretch, batches, members[layout]) {
                    let addresses = chunk.map { RowAddress(part: placeInLayout[$0.part], row: $0.row) }
                    pieces.append((FeatureBatch.gathering(addresses, from: members[layout], spatial: false), nil))
                }
            }
            start = end
        }
        return pieces
    }

    /// Each run of rows of one batch as a piece.
    private static func byRuns(_ window: ArraySlice<RowAddress>, _ batches: [FeatureBatch]) -> [(batch: FeatureBatch, rows: [UInt32]?)] {
        var pieces: [(batch: FeatureBatch, rows: [UInt32]?)] = []
        var start = window.startIndex
        while start < window.endIndex {
            var end = start + 1
            while end < window.endIndex, window[end].part == window[start].part { end += 1 }
            pieces.append((batches[window[start].part], window[start..<end].map { UInt32($0.row) }))
            start = end
        }
        return pieces
    }

    /// The stretch cut where a gathered batch would pass `compactedRows` rows
    /// or `compactedBytes` in its geometry or a text column (32-bit offsets).
    /// The bytes are only counted when the layout's batches together hold more.
    private static func chunks(
        _ stretch: ArraySlice<RowAddress>, _ batches: [FeatureBatch], _ members: [FeatureBatch]
    ) -> [ArraySlice<RowAddress>] {
        let limit = FeatureBatch.compactedBytes
        let textColumns = members[0].columns.indices.filter { members[0].columns[$0].kind == .string }
        let mayOverflow =
            members.reduce(0) { $0 + $1.geometry.bytes.count } > limit
            || textColumns.contains { column in members.reduce(0) { $0 + ($1.columns[column].bytes?.count ?? 0) } > limit }
        var chunks: [ArraySlice<RowAddress>] = []
        var start = stretch.startIndex
        var sizes = [Int](repeating: 0, count: textColumns.count + 1)  // geometry, then each text column
        var row = [Int](repeating: 0, count: textColumns.count + 1)
        for index in stretch.indices {
            var full = index - start >= FeatureBatch.compactedRows
            if mayOverflow {
                let address = stretch[index], batch = batches[address.part]
                row[0] = batch.geometry.wkb(address.row).count
                for (place, column) in textColumns.enumerated() {
                    row[place + 1] = batch.columns[column].stringBytes(address.row).count + 1
                }
                if full || zip(sizes, row).contains(where: { $0 + $1 > limit }) {
                    full = true
                    sizes = row
                } else {
                    for place in sizes.indices { sizes[place] += row[place] }
                }
            }
            if full, index > start {
                chunks.append(stretch[start..<index])
                start = index
            }
        }
        chunks.append(stretch[start..<stretch.endIndex])
        return chunks
    }
}
