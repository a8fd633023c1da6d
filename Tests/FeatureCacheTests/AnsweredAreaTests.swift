// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Issue 14: a table query's complete answer is coverage — for its own where
/// clause, inside its box — and it shares the tiles' eviction.
@Suite struct AnsweredAreaTests {
    private let signature = TileCoverage.answerSignature("where=&outFields=*", whereClause: "Condition < 4")

    @Test func anAnswerCoversItsBoxForItsWhereOnly() {
        var coverage = TileCoverage()
        let released = coverage.coverArea(BoundingBox(0, 0, 10, 10), signature: signature, ids: [1, 2, 3])
        #expect(released.isEmpty)
        let inside = coverage.coversAnswered(BoundingBox(2, 2, 5, 5), signature: signature)
        let across = coverage.coversAnswered(BoundingBox(2, 2, 11, 5), signature: signature)
        let otherWhere = coverage.coversAnswered(
            BoundingBox(2, 2, 5, 5),
            signature: TileCoverage.answerSignature("where=&outFields=*", whereClause: "Condition = 4"))
        #expect(inside && !across && !otherWhere)
        // A new table filter forgets the answers made under the old one, and frees their features.
        let freed = coverage.keepOnly(signature: "where=Condition > 0&outFields=*")
        #expect(freed.sorted() == [1, 2, 3])
        let after = coverage.coversAnswered(BoundingBox(2, 2, 5, 5), signature: signature)
        #expect(!after)
    }

    @Test func answersAreBoundedAndEvictedOldestFirst() {
        var coverage = TileCoverage()
        for index in 0..<TileCoverage.maxAreasPerSignature {
            let released = coverage.coverArea(
                BoundingBox(Double(index), 0, Double(index) + 1, 1), signature: signature, ids: [Int64(index)])
            #expect(released.isEmpty)
        }
        // Using the first answer makes the second the least recently used: one
        // more answer drops it, with its feature.
        let used = coverage.coversAnswered(BoundingBox(0, 0, 1, 1), signature: signature)
        let dropped = coverage.coverArea(BoundingBox(100, 0, 101, 1), signature: signature, ids: [100])
        let gone = coverage.coversAnswered(BoundingBox(1, 0, 2, 1), signature: signature)
        #expect(used && dropped == [1] && !gone)
        // The budget's eviction takes the oldest answer too.
        let evicted = coverage.evictLeastRecent(keeping: { _ in false })
        #expect(evicted == [2])
    }
}
