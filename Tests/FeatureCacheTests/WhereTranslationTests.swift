// SPDX-License-Identifier: Apache-2.0
@testable import FeatureCache
@testable import FCArcGIS
@testable import FCOGCAPI
@testable import FCWFS
@testable import FCSupport
@testable import FCData
@testable import FCTransport
@testable import FCTables
import Testing

/// Where clauses translated for servers: CQL2 text and JSON (OGC API - Features),
/// FES 2.0 and Filter 1.1 (WFS), and the split between server and local.
@Suite struct WhereTranslationTests {
    private func parse(_ text: String) throws -> WhereExpression { try #require(try WhereParser.parse(text)) }

    @Test func cql2Text() throws {
        let cases: [(String, String?)] = [
            ("Condition = 4", "Condition = 4"),
            ("Species = 'O''Brien' AND DBH >= 30.5", "(Species = 'O''Brien' AND DBH >= 30.5)"),
            ("\"Tree Name\" <> 'a' OR NOT Condition IN (1, 2)", "(\"Tree Name\" <> 'a' OR NOT (Condition IN (1, 2)))"),
            ("DBH NOT BETWEEN 1 AND 2", "DBH NOT BETWEEN 1 AND 2"),
            ("Species LIKE 'A#%%' ESCAPE '#'", "Species LIKE 'A\\%%'"),
            ("Species IS NOT NULL", "Species IS NOT NULL"),
            ("Planted > DATE '2010-01-01'", "Planted > DATE('2010-01-01')"),
            ("Planted < TIMESTAMP '2010-01-01 10:30:00'", "Planted < TIMESTAMP('2010-01-01T10:30:00Z')"),
            ("DBH * 2 > 10", "(DBH * 2) > 10"),
            ("UPPER(Species) = 'A'", nil),
            ("EXTRACT(YEAR FROM Planted) = 2010", nil),
        ]
        for (clause, expected) in cases {
            #expect(CQL2Text.translate(try parse(clause)) == expected, "\(clause)")
        }
    }

    @Test func cql2JSONIsJSON() throws {
        let json = try #require(
            CQL2JSON.translate(try parse("Condition IN (1, 2) AND Species LIKE 'A%' AND NOT DBH IS NULL AND Planted >= DATE '2010-01-01'")))
        let value = try JSONValue.parse(Array(json.utf8))
        #expect(value["op"]?.string == "and")
        #expect(json.contains(#"{"op":"in","args":[{"property":"Condition"},[1,2]]}"#))
        #expect(json.contains(#"{"op":"like","args":[{"property":"Species"},"A%"]}"#))
        #expect(json.contains(#"{"op":"not","args":[{"op":"isNull","args":[{"property":"DBH"}]}]}"#))
        #expect(json.contains(#"{"date":"2010-01-01"}"#))
        #expect(CQL2JSON.translate(try parse("Species || 'x' = 'ax'")) == nil)
    }

    @Test func fes20AndFilter11() throws {
        let expression = try parse("Condition = 4 AND Species LIKE 'A%' AND Name = 'a<b&c'")
        let fes = try #require(FESFilter.document(expression, version: .fes20))
        // One flat And of three (FES And takes two or more operands).
        #expect(
            fes.hasPrefix(
                #"<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:And><fes:PropertyIsEqualTo matchCase="true"><fes:ValueReference>Condition</fes:ValueReference><fes:Literal>4</fes:Literal></fes:PropertyIsEqualTo>"#
            ))
        #expect(
            fes.contains(
                #"<fes:PropertyIsLike wildCard="%" singleChar="_" escapeChar="\" matchCase="true"><fes:ValueReference>Species</fes:ValueReference><fes:Literal>A%</fes:Literal></fes:PropertyIsLike>"#
            ))
        #expect(fes.contains("<fes:Literal>a&lt;b&amp;c</fes:Literal>"))
        let ogc = try #require(FESFilter.document(try parse("DBH + 1 > 5 OR Condition IN (1, 2)"), version: .filter11))
        #expect(ogc.contains("<ogc:Add><ogc:PropertyName>DBH</ogc:PropertyName><ogc:Literal>1</ogc:Literal></ogc:Add>"))
        #expect(ogc.contains("<ogc:Or><ogc:PropertyIsEqualTo matchCase=\"true\"><ogc:PropertyName>Condition</ogc:PropertyName>"))
        #expect(FESFilter.document(try parse("DBH + 1 > 5"), version: .fes20) == nil, "FES 2.0 has no arithmetic")
        #expect(
            try FESFilter.document(parse("DBH BETWEEN 1 AND 2"), version: .fes20)?.contains(
                "<fes:LowerBoundary><fes:Literal>1</fes:Literal></fes:LowerBoundary>") == true)
    }

    @Test func filter11And10LikeAndComparisons() throws {
        let expression = try parse("Species LIKE 'A%' AND Condition = 4")
        let v11 = try #require(FESFilter.document(expression, version: .filter11))
        #expect(v11.contains(#"<ogc:PropertyIsLike wildCard="%" singleChar="_" escapeChar="\" matchCase="true">"#))
        // Filter 1.0: `escape`, and no matchCase anywhere (its schema has none).
        let v10 = try #require(FESFilter.document(expression, version: .filter10))
        #expect(v10.contains(#"<ogc:PropertyIsLike wildCard="%" singleChar="_" escape="\">"#))
        #expect(
            v10.contains(
                "<ogc:PropertyIsEqualTo><ogc:PropertyName>Condition</ogc:PropertyName><ogc:Literal>4</ogc:Literal></ogc:PropertyIsEqualTo>")
        )
        #expect(!v10.contains("matchCase"))
        #expect(
            WFSGetFeaturePlan.bboxElement([1, 2, 3, 4], crs: "EPSG:4326", property: "geom", version: .filter10)
                == #"<ogc:BBOX><ogc:PropertyName>geom</ogc:PropertyName><gml:Box srsName="EPSG:4326"><gml:coordinates>1,2 3,4</gml:coordinates></gml:Box></ogc:BBOX>"#
        )
    }

    @Test func untranslatableTermsStayLocal() throws {
        let expression = try parse(
            "Condition = 4 AND UPPER(Species) LIKE 'A%' AND (DBH > 3 OR CHAR_LENGTH(Species) > 4) AND Planted IS NULL")
        let plan = WherePushdown(expression) { CQL2Text.translate($0) != nil }
        #expect(plan.server.flatMap(CQL2Text.translate) == "(Condition = 4 AND Planted IS NULL)")
        #expect(plan.local == (try parse("UPPER(Species) LIKE 'A%' AND (DBH > 3 OR CHAR_LENGTH(Species) > 4)")))
        let all = WherePushdown(try parse("Condition = 4")) { CQL2Text.translate($0) != nil }
        #expect(all.local == nil && all.server != nil)
        #expect(WherePushdown(nil) { _ in true } == WherePushdown(nil) { _ in false })
    }
}
