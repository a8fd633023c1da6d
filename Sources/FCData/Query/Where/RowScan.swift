// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// One typed loop over the rows a where clause is still deciding — all of a
/// batch's rows, or a list of them — that skips NULLs and lists (or only
/// counts) the rows a test passes. The test is a closure the optimizer inlines,
/// so each comparison becomes a tight loop over the column's own storage.
package struct RowScan {
    /// The rows to look at, ascending; nil = every row of the batch.
    package let rows: [Int]?
    /// The batch's row count.
    package let count: Int
    package let validity: Bitmap?
    /// Count the passing rows without listing them.
    package let counting: Bool

    package typealias Outcome = (rows: [Int], count: Int)

    @inline(__always)
    package func select(_ passes: (Int) -> Bool) -> Outcome {
        if let rows { return run(rows, passes) }
        return run(0..<count, passes)
    }

    /// A column of integers against an integer constant.
    @inline(__always)
    package func integers(_ values: ColumnBuffer<Int64>, _ op: WhereExpression.Comparison, _ c: Int64) -> Outcome {
        values.withUnsafeBufferPointer { v in
            switch op {
            case .equal: select { v[$0] == c }
            case .notEqual: select { v[$0] != c }
            case .less: select { v[$0] < c }
            case .lessOrEqual: select { v[$0] <= c }
            case .greater: select { v[$0] > c }
            case .greaterOrEqual: select { v[$0] >= c }
            }
        }
    }

    @inline(__always)
    private func run<Rows: Sequence<Int>>(_ candidates: Rows, _ passes: (Int) -> Bool) -> Outcome {
        var listed: [Int] = []
        var matched = 0
        if counting {
            if let validity {
                for row in candidates where validity[row] && passes(row) { matched += 1 }
            } else {
                for row in candidates where passes(row) { matched += 1 }
            }
            return ([], matched)
        }
        listed.reserveCapacity(candidates.underestimatedCount)
        if let validity {
            for row in candidates where validity[row] && passes(row) { listed.append(row) }
        } else {
            for row in candidates where passes(row) { listed.append(row) }
        }
        return (listed, listed.count)
    }
}
