// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// Validators as the cache files keep them (FILE-FORMAT.md): bool (whether
/// every answer had one), then u32 count and per answer the URL (string) and
/// optional strings ETag, Last-Modified and Accept.
extension AnswerValidator {
    package static func write(_ validators: [AnswerValidator]?, to out: inout BinaryWriter) {
        out.bool(validators != nil)
        guard let validators else { return }
        out.u32(UInt32(validators.count))
        for validator in validators {
            out.string(validator.url)
            for value in [validator.etag, validator.lastModified, validator.accept] {
                out.bool(value != nil)
                if let value { out.string(value) }
            }
        }
    }

    /// At most `limit` of them (more is a corrupt file).
    package static func read(from input: inout BinaryReader, limit: Int) throws(FeatureCacheError) -> [AnswerValidator]? {
        guard try input.bool() else { return nil }
        let count = Int(try input.u32())
        guard count <= limit else { throw input.corrupt("\(count) validators") }
        var validators: [AnswerValidator] = []
        validators.reserveCapacity(count)
        for _ in 0..<count {
            let url = try input.string()
            var values: [String?] = []
            for _ in 0..<3 { values.append(try input.bool() ? try input.string() : nil) }
            validators.append(AnswerValidator(url: url, etag: values[0], lastModified: values[1], accept: values[2]))
        }
        return validators
    }
}
