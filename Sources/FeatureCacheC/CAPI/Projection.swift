// SPDX-License-Identifier: Apache-2.0
import FeatureCache

@_cdecl("fc_projection_accuracy")
public func fcProjectionAccuracy(_ from: Int32, _ to: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    output(out) { () throws(FeatureCacheError) in
        guard from > 0, to > 0 else { throw FeatureCacheError.invalidArgument("wkids must be positive (got \(from) and \(to))") }
        guard let transform = try Projection.transform(from: from, to: to) else { return 0 }
        return transform.accuracy ?? -1
    }
}
