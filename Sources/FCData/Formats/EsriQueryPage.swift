// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// What one ArcGIS query response holds besides its features, in either of
/// its formats (Esri JSON, `f=json`; protocol buffers, `f=pbf`).
package struct EsriQueryPage {
    package var batch: FeatureBatch
    package var exceededTransferLimit = false
    package var spatialReference: SpatialReference?
    /// The body is an `{"error":…}` object; the caller turns it into the error.
    package var isServiceError = false
}
