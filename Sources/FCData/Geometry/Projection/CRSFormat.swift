// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// How a CRS definition is written for other tools (`FC_CRS_FORMAT_*`).
public enum CRSFormat: Int32, Sendable, CaseIterable {
    /// WKT2:2019 (ISO 19162:2019), as PROJ writes it.
    case wkt2 = 1
    /// PROJJSON on one line: what GeoArrow and GeoParquet carry.
    case projJSON = 2
}

extension CRSDescription {
    package func definition(_ format: CRSFormat) -> String {
        switch format {
        case .wkt2: wkt2
        case .projJSON: projJSON
        }
    }
}
