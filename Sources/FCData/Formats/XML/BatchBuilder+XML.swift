// SPDX-License-Identifier: Apache-2.0
import FCSupport

// Finding a row's column by an XML element's name: the wire format's side of
// `BatchBuilder`.
extension BatchBuilder {
    /// The column named by a NUL-terminated name (an XML element's local name);
    /// with `inferring`, an unknown name gets a new column.
    package func column(named name: UnsafePointer<UInt8>, hint: Int, inferring: Bool) -> Int? {
        let found = column(hint: hint) { known in
            known.withUnsafeBufferPointer { known in
                for position in 0..<known.count where name[position] != known[position] { return false }
                return name[known.count] == 0
            }
        }
        guard found == nil, inferring else { return found }
        return addInferredColumn(String(cString: name))
    }
}
