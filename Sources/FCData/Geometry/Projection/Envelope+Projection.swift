// SPDX-License-Identifier: Apache-2.0
import FCSupport

extension Shape {
    /// The shape with every coordinate transformed (vertices only: edges are
    /// not densified). Coordinates that cannot be projected come back non-finite.
    package func mapped(_ transform: CoordinateTransform) -> Shape {
        transform.withPointFunction { point in
            Shape(
                dimension: dimension,
                parts: parts.map { part in
                    var out = part
                    var i = 0
                    while i + 1 < out.count {
                        (out[i], out[i + 1]) = point(part[i], part[i + 1])
                        i += 2
                    }
                    return out
                })
        }
    }
}

extension BoundingBox {
    /// The smallest box holding this one (in `from`) projected to `to`, its
    /// edges densified: what a server must be asked for so that nothing the
    /// box holds is left out.
    package func projected(from: Int32, to: Int32) throws(FeatureCacheError) -> BoundingBox {
        let envelope = try Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, spatialReference: SpatialReference(wkid: from))
            .projected(to: to)
        return BoundingBox(envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax)
    }
}

extension Envelope {
    /// Points per edge sampled when a transform may curve the edges (GDAL's
    /// OCTTransformBounds default is 21 as well).
    static let densifiedPoints = 21

    /// The envelope in another spatial reference: the smallest rectangle holding
    /// the projected rectangle. Corners suffice for Web Mercator ↔ WGS84; for
    /// other pairs each edge is densified so a curved edge is not clipped.
    /// `.unsupported` when no part of it can be projected.
    package func projected(to wkid: Int32) throws(FeatureCacheError) -> Envelope {
        try projected(to: SpatialReference(wkid: wkid))
    }

    /// The same into a reference that may be WKT only.
    package func projected(to reference: SpatialReference) throws(FeatureCacheError) -> Envelope {
        guard let transform = try Projection.transform(from: spatialReference, to: reference) else { return self }
        var box = BoundingBox()
        transform.withPointFunction { point in
            let steps = transform.keepsRectangles ? 1 : Self.densifiedPoints - 1
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                let x = xmin + (xmax - xmin) * t, y = ymin + (ymax - ymin) * t
                for (px, py) in [(x, ymin), (x, ymax), (xmin, y), (xmax, y)] {
                    let (u, v) = point(px, py)
                    if u.isFinite, v.isFinite { box.add(u, v) }
                }
            }
        }
        guard box.xmin.isFinite, box.ymin.isFinite else {
            throw FeatureCacheError(
                .unsupported, "the envelope (\(xmin), \(ymin), \(xmax), \(ymax)) cannot be projected (\(transform.label))")
        }
        return Envelope(xmin: box.xmin, ymin: box.ymin, xmax: box.xmax, ymax: box.ymax, spatialReference: reference)
    }
}
