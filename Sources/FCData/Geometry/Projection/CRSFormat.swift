// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension CRSDescription {
    package func definition(_ format: CRSFormat) -> String {
        switch format {
        case .wkt2: wkt2
        case .projJSON: projJSON
        }
    }
}
