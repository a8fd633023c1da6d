// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
import FCTables
import FCServices
import FCArcGIS
import FCOGCAPI
import FCWFS
import FCDocument

/// The adapters `FeatureTable.open` asks, in order. Registering a protocol is
/// one line here; the rest of it lives in its own folder.
enum ServiceAdapters {
    static let registered: [any ServiceAdapter] = [
        ArcGISAdapter(),
        OGCAPIAdapter(),
        FeatureDocumentAdapter(),
        WFSAdapter(),  // last: it asks the URL for WFS capabilities, whatever it is
    ]
}
