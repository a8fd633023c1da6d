// SPDX-License-Identifier: Apache-2.0
import FCSupport

// The pages the formats' readers give, as a resumable populate keeps them
// (`JournaledPage`): the batch, then what the page says of the next ones.

extension EsriQueryPage: JournaledPage {
    package func write(to out: inout BinaryWriter) {
        BatchCodec.write(batch, to: &out)
        out.bool(exceededTransferLimit)
        MetadataCodec.write(spatialReference, to: &out)
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> EsriQueryPage {
        var page = EsriQueryPage(batch: try BatchCodec.read(from: &input))
        page.exceededTransferLimit = try input.bool()
        page.spatialReference = try MetadataCodec.readReference(&input)
        return page
    }
}

extension GeoJSONPage: JournaledPage {
    package func write(to out: inout BinaryWriter) {
        BatchCodec.write(batch, to: &out)
        out.bool(exceededTransferLimit)
        out.optionalI64(numberMatched)
        out.optionalI64(numberReturned)
        out.optionalString(nextLink)
    }

    package static func read(from input: inout BinaryReader) throws(FeatureCacheError) -> GeoJSONPage {
        var page = GeoJSONPage(batch: try BatchCodec.read(from: &input))
        page.exceededTransferLimit = try input.bool()
        page.numberMatched = try input.optionalI64()
        page.numberReturned = try input.optionalI64()
        page.nextLink = try input.optionalString()
        return page
    }
}
