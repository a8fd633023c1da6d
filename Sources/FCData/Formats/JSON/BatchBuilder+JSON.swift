// SPDX-License-Identifier: Apache-2.0
import FCSupport

// Reading a JSON object of values (Esri `attributes`, GeoJSON `properties`)
// into a row: the wire format's side of `BatchBuilder`.
extension BatchBuilder {
    /// The column whose name is exactly the scanner's current key; `hint` is where
    /// to look first (attributes usually come in field order).
    @inline(__always)
    package func column(forKeyOf scanner: JSONScanner, hint: Int) -> Int? {
        column(hint: hint) { scanner.keyEquals(bytes: $0) }
    }

    /// The column for a property, created (NULL for earlier rows) when new.
    package func inferredColumn(forKeyOf scanner: JSONScanner, hint: Int) -> Int {
        column(forKeyOf: scanner, hint: hint) ?? addInferredColumn(scanner.key)
    }

    /// Reads one JSON object of values into the current row: Esri `attributes`
    /// (keys the schema does not list are skipped) or GeoJSON `properties`
    /// (`inferring`: unknown keys get new columns). null = no values.
    package func readValues(_ scanner: inout JSONScanner, inferring: Bool) throws(FeatureCacheError) {
        if try scanner.readNull() { return }
        try scanner.beginObject()
        var hint = 0
        while try scanner.nextKey() {
            let found = inferring ? inferredColumn(forKeyOf: scanner, hint: hint) : column(forKeyOf: scanner, hint: hint)
            guard let column = found else {
                try scanner.skipValue()
                continue
            }
            hint = column + 1
            guard columns[column].count == count else { throw scanner.error("'\(scanner.key)' appears twice in one feature") }
            try appendValue(toColumn: column, from: &scanner)
        }
    }

    /// Reads the next value into `column` for the current row.
    @inline(__always)
    package func appendValue(toColumn column: Int, from scanner: inout JSONScanner) throws(FeatureCacheError) {
        do {
            try columns[column].appendValue(from: &scanner)
        } catch {
            // Type mismatches come from the column: say where in the document.
            throw error.message.hasPrefix("JSON:") ? error : scanner.error(error.message)
        }
    }
}
