// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCDocument
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// The where-clause engine: parse errors with positions, and conformance with
/// SQLite on the same rows (Fixtures/where, written by make_cases.py).
@Suite struct WhereClauseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let whereClause: String
        let ids: [Int64]
        var testDescription: String { whereClause }
    }

    static let cases: [Case] = {
        guard let bytes = try? Fixtures.bytes("where/cases.json"), let json = try? JSONValue.parse(bytes) else { return [] }
        return (json.array ?? []).map { item in
            Case(whereClause: item["where"]!.string!, ids: item["ids"]!.array!.map { $0.int! })
        }
    }()

    static let batch: FeatureBatch? = {
        guard let bytes = try? Fixtures.bytes("where/rows.json") else { return nil }
        let fields = [
            FieldInfo(name: "OBJECTID", type: .oid), FieldInfo(name: "Condition", type: .smallInteger),
            FieldInfo(name: "Species", type: .string), FieldInfo(name: "DBH", type: .double),
            FieldInfo(name: "Planted", type: .date),
        ]
        return try? bytes.withUnsafeBytes { try EsriJSONReader.read($0, fields: fields, objectIdField: "OBJECTID").batch }
    }()

    @Test func thereAreEnoughCases() {
        #expect(Self.cases.count >= 150)
        #expect(Self.batch?.count == 307)
    }

    @Test(arguments: cases)
    func agreesWithSQLite(_ testCase: Case) throws {
        let batch = try #require(Self.batch)
        let expression = try #require(try WhereParser.parse(testCase.whereClause))
        try WhereEvaluator.validate(expression, fields: batch.fields)
        let rows = try WhereEvaluator(expression).select(batch)
        #expect(rows.map { batch.objectId($0) } == testCase.ids)
    }

    @Test func errorsSayWhereAndWhat() {
        let cases: [(String, String)] = [
            ("Condition = ", "expected a value, a field or '(' at position 13, found the end of the clause"),
            ("Condition = 4 AND", "at position 18"),
            ("Species = 'open", "unterminated string literal at position 11"),
            ("Condition IN 1, 2", "expected '(' at position 14"),
            ("DBH BETWEEN 1", "expected AND"),
            ("Species LIKE 'a' ESCAPE 'ab'", "one-character escape"),
            ("Condition NOT 4", "IN, BETWEEN or LIKE after NOT"),
            ("FROB(Condition) = 1", "unknown function FROB"),
            ("UPPER(Species, 2) = 'A'", "UPPER takes 1 arguments, not 2"),
            ("Planted > DATE '2024-13-01'", "a 'YYYY-MM-DD' literal"),
            ("Condition = 4 Species", "expected AND, OR or the end of the clause at position 15"),
            ("Condition ? 4", "unexpected character '?' at position 11"),
            ("CAST(DBH AS BLOB) = 1", "INTEGER, DOUBLE, VARCHAR, DATE or TIMESTAMP"),
        ]
        for (clause, message) in cases {
            #expect {
                _ = try WhereParser.parse(clause)
            } throws: { error in
                let error = error as! FeatureCacheError
                return error.code == .invalidArgument && error.message.contains(message)
            }
        }
    }

    @Test func unknownFieldsAreNamed() throws {
        let expression = try #require(try WhereParser.parse("Hieght > 3"))
        #expect {
            try WhereEvaluator.validate(expression, fields: [FieldInfo(name: "Height", type: .double)])
        } throws: { error in
            (error as! FeatureCacheError).message.contains("no field named 'Hieght' (fields: Height)")
        }
        #expect(try WhereParser.parse("   ") == nil)
    }

    @Test func functionsSQLiteLacksHere() throws {
        let batch = try #require(Self.batch)
        for (clause, expected) in [
            ("CEILING(DBH) = 31 AND OBJECTID = 1006", 1), ("FLOOR(DBH) = -5", 1), ("POWER(Condition, 2) = 16 AND OBJECTID = 1004", 1),
            ("CURRENT_DATE > DATE '2020-01-01' AND OBJECTID = 1", 1), ("CURRENT_TIMESTAMP < DATE '2000-01-01'", 0),
            ("CAST(Planted AS DATE) = DATE '2010-01-01'", 1), ("CONCAT(NULL, 'x') = 'x' AND OBJECTID = 1", 1),
        ] {
            let expression = try #require(try WhereParser.parse(clause))
            #expect(try WhereEvaluator(expression).select(batch).count == expected, "\(clause)")
        }
    }
}
