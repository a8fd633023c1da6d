// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// The selection-vector path of the where engine (typed loops over the rows a
/// conjunction or disjunction leaves open, and counts that list no rows) must
/// choose exactly the rows the three-valued vector evaluation says are TRUE,
/// on random clauses over the SQLite conformance rows, for all rows and for
/// subsets of them.
@Suite struct WhereSelectionTests {
    private static let fields = ["Condition", "DBH", "Species", "Planted", "OBJECTID"]
    private static let constants = [
        "4", "2", "-1", "20", "20.5", "0.0", "'4'", "' 3 '", "'Acer'", "'Quercus rubra'", "''",
        "NULL", "1e3", "DATE '2015-06-01'", "TIMESTAMP '2020-01-01 00:00:00'", "1433116800000",
    ]
    private static let operators = ["=", "<>", "<", "<=", ">", ">="]

    private func comparison(_ random: inout SeededRandom) -> String {
        let field = Self.fields.randomElement(using: &random)!
        let constant = Self.constants.randomElement(using: &random)!
        let op = Self.operators.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "\(constant) \(op) \(field)"
        case 1: return "\(field) BETWEEN \(Self.constants.randomElement(using: &random)!) AND \(constant)"
        case 2: return "\(field) IN (\(constant), \(Self.constants.randomElement(using: &random)!))"
        case 3: return "\(field) IS NULL"
        case 4: return "\(field) NOT BETWEEN \(constant) AND \(Self.constants.randomElement(using: &random)!)"
        default: return "\(field) \(op) \(constant)"
        }
    }

    private func clause(_ random: inout SeededRandom, depth: Int) -> String {
        guard depth > 0, Int.random(in: 0..<3, using: &random) > 0 else { return comparison(&random) }
        let terms = (0..<Int.random(in: 2...4, using: &random)).map { _ in clause(&random, depth: depth - 1) }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return "NOT (\(terms.joined(separator: " AND ")))"
        case 1, 2: return "(" + terms.joined(separator: " OR ") + ")"
        default: return "(" + terms.joined(separator: " AND ") + ")"
        }
    }

    /// The TRUE rows as the vector evaluation gives them.
    private func expected(_ evaluator: WhereEvaluator, _ batch: FeatureBatch, _ rows: [Int]) throws -> [Int] {
        let vector = try evaluator.evaluate(evaluator.expression, batch, rows)
        return rows.indices.filter { vector.value($0).truth == .yes }.map { rows[$0] }
    }

    /// 2,000 clauses in four seeded runs of 500, which the test runner spreads
    /// over the cores (one run of 2,000 was the suite's tail under TSan).
    @Test(arguments: [7, 8, 9, 10] as [UInt64])
    func selectionsAndCountsEqualTheVectorEvaluation(seed: UInt64) throws {
        let batch = try #require(WhereClauseTests.batch)
        var random = SeededRandom(seed: seed)
        var nonTrivial = 0
        for _ in 0..<500 {
            let text = clause(&random, depth: 3)
            let expression = try #require(try WhereParser.parse(text), "\(text)")
            let evaluator = WhereEvaluator(expression, now: 1_700_000_000_000)
            let all = Array(0..<batch.count)
            let some = all.filter { _ in Bool.random(using: &random) }
            for rows in [all, some] {
                let want = try expected(evaluator, batch, rows)
                let given: [Int]? = rows.count == batch.count ? nil : rows
                #expect(try evaluator.select(batch, rows: given) == want, "\(text)")
                #expect(try evaluator.count(batch, rows: given) == want.count, "\(text)")
                if !want.isEmpty && want.count < rows.count { nonTrivial += 1 }
            }
        }
        #expect(nonTrivial > 250)  // the clauses really split the rows
    }
}
