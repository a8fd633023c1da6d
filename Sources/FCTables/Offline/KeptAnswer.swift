// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport

/// A whole answer a source keeps beside the table's cache (`answer.fcc`): a
/// document of features served whole, as it was downloaded, with the
/// validator it came with. A later run asks whether it changed (a 304 costs
/// no body) and, when it did, tells what changed by comparing the two.
package struct KeptAnswer: Sendable {
    /// What asks it again conditionally; nil when the server sent none (the
    /// body still tells a later copy's changes).
    package var validator: AnswerValidator?
    package var body: [UInt8]

    package init(validator: AnswerValidator?, body: [UInt8]) {
        self.validator = validator
        self.body = body
    }

    /// The payload of `answer.fcc` (FILE-FORMAT.md): the validator as the
    /// features file keeps validators (one, or none), then the body as `raw`.
    func encoded() -> [UInt8] {
        var out = BinaryWriter(capacity: body.count + 1024)
        AnswerValidator.write(validator.map { [$0] }, to: &out)
        body.withUnsafeBytes { out.raw($0) }
        return out.bytes
    }

    static func decode(_ payload: UnsafeRawBufferPointer, path: String) throws(FeatureCacheError) -> KeptAnswer {
        var input = BinaryReader(payload, what: path)
        let validators = try AnswerValidator.read(from: &input, limit: 1)
        let body = Array(try input.raw())
        guard input.isAtEnd else { throw input.corrupt("\(input.remaining) bytes follow the kept answer") }
        return KeptAnswer(validator: validators?.first, body: body)
    }
}

/// A source that keeps a whole answer in the table's cache folder (a
/// document's copy): the table hands it the folder before the load.
package protocol AnswerKeepingSource: FeatureSource {
    func keepAnswers(in cache: PersistedCache)
}

extension PersistedCache {
    package var answerPath: String { folder + "/answer.fcc" }

    /// The kept answer, nil when there is none; one that cannot be read is
    /// set aside (it is asked again whole, as if never kept).
    package func readKeptAnswer() -> KeptAnswer? {
        Self.readKeptAnswer(at: answerPath, settingAside: !isReadOnly)
    }

    /// Replaces the kept answer (atomically: a reader sees the old or the new).
    /// A read-only cache keeps nothing.
    package func keep(_ answer: KeptAnswer) throws(FeatureCacheError) {
        guard !isReadOnly else { return }
        try CacheFiles.writeAtomically(answer.encoded(), kind: .answer, to: answerPath)
    }

    /// The answer kept for `identity` under `root`, read without taking the
    /// folder's lock (the file is only ever replaced whole): what an opener
    /// asks the server about before it knows which table it makes.
    package static func peekKeptAnswer(root: String, identity: String) -> KeptAnswer? {
        readKeptAnswer(at: folder(root: root, identity: identity) + "/answer.fcc", settingAside: false)
    }

    private static func readKeptAnswer(at path: String, settingAside: Bool) -> KeptAnswer? {
        do throws(FeatureCacheError) {
            guard let file = try CacheFiles.readWhole(path) else { return nil }
            try CacheFiles.check(file.bytes, kind: .answer, path: path)
            return try KeptAnswer.decode(UnsafeRawBufferPointer(rebasing: file.bytes[CacheFiles.headerSize...]), path: path)
        } catch {
            if settingAside { _ = CacheFiles.setAside(path) }
            return nil
        }
    }
}
