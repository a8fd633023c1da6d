// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCOGCAPI
@testable import FCWFS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Where clauses an application generates or an attacker writes: long flat
/// chains work at any length; nesting is bounded with an error that names the
/// limit, never a stack overflow (issue 13, D2).
@Suite struct WhereDepthTests {
    static let batch: FeatureBatch? = WhereClauseTests.batch

    private func select(_ clause: String) throws -> [Int64] {
        let batch = try #require(Self.batch)
        let expression = try #require(try WhereParser.parse(clause))
        return try WhereEvaluator(expression).select(batch).map { batch.objectId($0) }
    }

    private func expectDepthError(_ clause: String) {
        #expect {
            _ = try WhereParser.parse(clause)
        } throws: { error in
            let error = error as! FeatureCacheError
            return error.code == .invalidArgument && error.message.contains("nested deeper than \(WhereParser.maxDepth) levels")
        }
    }

    @Test func longOredClausesAreOneFlatNode() throws {
        // The issue's reproducer was 4,437 terms (~75 KB); this is 20,000 (test_hostile_callers.c
        // runs 100,000 through the C ABI on the release library: debug and TSan builds are slow).
        let terms = (0..<20_000).map { "Condition = \($0)" }
        let clause = terms.joined(separator: " OR ")
        let expression = try #require(try WhereParser.parse(clause))
        guard case let .or(parsed) = expression else { Issue.record("not an OR node"); return }
        #expect(parsed.count == 20_000)
        #expect(try select(clause) == select("Condition >= 0"))
        // The server translators take it too (a POSTed filter), flat.
        let cql = try #require(CQL2Text.translate(expression))
        #expect(cql.hasPrefix("(Condition = 0 OR Condition = 1 OR "))
        #expect(CQL2JSON.translate(expression) != nil)
        #expect(FESFilter.translate(expression, version: .fes20) != nil)
    }

    @Test func longAndChainsMatchTheirShortForm() throws {
        let clause = Array(repeating: "DBH >= 0", count: 2_000).joined(separator: " AND ") + " AND Condition < 3"
        #expect(try select(clause) == select("DBH >= 0 AND Condition < 3"))
    }

    @Test func nestingUpToTheLimitWorks() throws {
        let depth = WhereParser.maxDepth - 1
        let clause = String(repeating: "(", count: depth) + "Condition = 1" + String(repeating: ")", count: depth)
        #expect(try select(clause) == select("Condition = 1"))
        let nots = String(repeating: "NOT ", count: depth - 1) + "Condition = 1"  // odd or even, checked against the plain form
        #expect(try select(nots) == select((depth - 1) % 2 == 0 ? "Condition = 1" : "NOT Condition = 1"))
    }

    @Test func deepNestingFailsWithTheLimitNamed() {
        expectDepthError(String(repeating: "(", count: 17_500) + "Condition = 1" + String(repeating: ")", count: 17_500))
        expectDepthError(String(repeating: "NOT ", count: 4_968) + "Condition = 1")
        expectDepthError(String(repeating: "UPPER(", count: 2_437) + "Species" + String(repeating: ")", count: 2_437) + " = 'A'")
        expectDepthError("Condition = " + String(repeating: "-", count: 5_000) + "1")
        expectDepthError("Condition = 1" + String(repeating: " + 1", count: 20_000))
        expectDepthError("Species = 'a'" + String(repeating: " || 'b'", count: 20_000))
        expectDepthError("Condition = 1" + String(repeating: " * 1", count: 20_000))
        expectDepthError("CAST(" + String(repeating: "CAST(", count: 200) + "DBH" + String(repeating: " AS DOUBLE)", count: 201) + " > 1")
        // An unclosed flood of parentheses is refused at the limit.
        expectDepthError(String(repeating: "(", count: 200_000))
    }

    @Test func definitionExpressionsAreBoundedToo() async throws {
        let table = try FeatureTable.arcgis(url: "http://127.0.0.1:1/arcgis/rest/services/T/FeatureServer/0")
        #expect(throws: FeatureCacheError.self) {
            try table.setDefinitionExpression(String(repeating: "(", count: 17_500) + "a = 1" + String(repeating: ")", count: 17_500))
        }
    }

    /// Work a clause controls is bounded too: ROUND's digits once drove a loop
    /// of that many steps (a libFuzzer timeout: ROUND(1, -9223372036854775807)).
    @Test func roundWithExtremeDigitsAnswersAtOnce() throws {
        let batch = try #require(Self.batch)
        for (clause, expected) in [
            ("ROUND(1, -9223372036854775807) = 0", batch.count),
            ("ROUND(1.5, 9223372036854775807) = 1.5", batch.count),
            ("ROUND(123.456, 400) = 123.456", batch.count),
            ("ROUND(-123.456, -400) = 0", batch.count),
            ("ROUND(1e-300, 310) = 1e-300", batch.count),
            ("ROUND(1234.5, -2) = 1200", batch.count),
        ] {
            let expression = try #require(try WhereParser.parse(clause))
            #expect(try WhereEvaluator(expression).select(batch).count == expected, "\(clause)")
        }
    }
}
