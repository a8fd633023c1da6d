// SPDX-License-Identifier: Apache-2.0
import FCSupport
import CXML

/// One start tag as libxml2's SAX2 reader reports it: borrowed C strings, valid
/// only during the `start` callback.
package struct XMLStartTag {
    package let localName: UnsafePointer<UInt8>
    package let namespace: UnsafePointer<UInt8>?
    package let attributeCount: Int
    package let attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    /// Whether the local name is `name` (ASCII).
    @inline(__always)
    package func named(_ name: StaticString) -> Bool { XMLBytes.equal(localName, name) }

    package var name: String { String(cString: localName) }
    package var namespaceURI: String { namespace.map { String(cString: $0) } ?? "" }

    /// The value of the attribute with this local name (any namespace), as bytes.
    package func attribute(_ local: StaticString) -> UnsafeRawBufferPointer? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let base = index * 5
            guard let name = attributes[base], XMLBytes.equal(name, local),
                let start = attributes[base + 3], let end = attributes[base + 4]
            else { continue }
            return UnsafeRawBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    package func attributeString(_ local: StaticString) -> String? {
        attribute(local).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every attribute as (local name, value).
    package var allAttributes: [(name: String, value: String)] {
        guard let attributes else { return [] }
        return (0..<attributeCount).compactMap { index in
            let base = index * 5
            guard let name = attributes[base], let start = attributes[base + 3], let end = attributes[base + 4] else { return nil }
            return (String(cString: name), String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self))
        }
    }
}

package enum XMLBytes {
    /// Compares a NUL-terminated C string with a static ASCII string.
    @inline(__always)
    package static func equal(_ cString: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        let expected = name.utf8Start
        for index in 0..<count where cString[index] != expected[index] { return false }
        return cString[count] == 0
    }

    /// Compares a NUL-terminated C string with bytes.
    package static func equal(_ cString: UnsafePointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        for index in bytes.indices where cString[index] != bytes[index] { return false }
        return cString[bytes.count] == 0
    }

    package static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The bytes without leading and trailing XML whitespace.
    package static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}

/// What a streaming XML reader does with each event. Throwing stops the parse
/// and becomes its error.
package protocol XMLEventSink: AnyObject {
    func start(_ tag: XMLStartTag) throws(FeatureCacheError)
    func end() throws(FeatureCacheError)
    func text(_ bytes: UnsafeRawBufferPointer)
}

/// Streaming XML through libxml2's SAX2 parser, with the library's safety rules
/// in one place (`fcsys_xml_parse`): no DTD loading, no network, no entity
/// expansion — a document that declares entities is refused at once — and a
/// nesting limit. Nothing is kept but what the sink keeps.
package enum XMLStream {
    package static let maxDepth: Int32 = 200

    /// A whole document in memory.
    package static func parse(_ bytes: UnsafeRawBufferPointer, into sink: XMLEventSink, what: String = "XML") throws(FeatureCacheError) {
        let parser = try XMLPushParser(into: sink, what: what)
        try parser.feed(bytes)
        try parser.finish()
    }
}

/// A document parsed as it arrives, chunk by chunk (a response still being
/// received), under the same rules as `XMLStream.parse`, which is this with one
/// chunk: every check holds across chunk boundaries, and the events the sink
/// sees are the same however the bytes are split. One thread at a time.
package final class XMLPushParser {
    private final class Box {
        let sink: XMLEventSink
        var error: FeatureCacheError?
        init(_ sink: XMLEventSink) { self.sink = sink }
    }

    private let box: Box
    private let what: String
    private let callbacks: UnsafeMutablePointer<fcsys_xml_callbacks>
    private let push: OpaquePointer
    private var received = 0

    package init(into sink: XMLEventSink, what: String = "XML") throws(FeatureCacheError) {
        box = Box(sink)
        self.what = what
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(
            to: fcsys_xml_callbacks(
                start: { user, local, _, uri, count, attributes in
                    let box = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
                    let tag = XMLStartTag(
                        localName: local!, namespace: uri, attributeCount: Int(count),
                        attributes: UnsafeMutablePointer(mutating: attributes))
                    do throws(FeatureCacheError) { try box.sink.start(tag) } catch { box.error = error; return 1 }
                    return 0
                },
                end: { user in
                    let box = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
                    do throws(FeatureCacheError) { try box.sink.end() } catch { box.error = error; return 1 }
                    return 0
                },
                text: { user, text, length in
                    let box = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
                    box.sink.text(UnsafeRawBufferPointer(start: text, count: Int(length)))
                    return 0
                }))
        // The box lives as long as self; the C side holds it unretained.
        guard let push = fcsys_xml_push_create(callbacks, Unmanaged.passUnretained(box).toOpaque(), XMLStream.maxDepth) else {
            callbacks.deallocate()
            throw FeatureCacheError(.limit, "\(what): out of memory for the XML parser")
        }
        self.push = push
    }

    deinit {
        fcsys_xml_push_free(push)
        callbacks.deallocate()
    }

    /// Parses the next bytes of the document.
    package func feed(_ bytes: UnsafeRawBufferPointer) throws(FeatureCacheError) {
        guard !bytes.isEmpty else { return }
        received += bytes.count
        try run(bytes, terminate: false)
    }

    /// The document is complete: fails if it is empty, cut short or malformed.
    package func finish() throws(FeatureCacheError) {
        if received == 0 { throw FeatureCacheError.parse("\(what): the response is empty") }
        try run(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
    }

    private func run(_ bytes: UnsafeRawBufferPointer, terminate: Bool) throws(FeatureCacheError) {
        var message = [CChar](repeating: 0, count: 512)
        let outcome = withExtendedLifetime(box) {
            fcsys_xml_push_feed(
                push, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, terminate ? 1 : 0,
                &message, message.count)
        }
        if let error = box.error { throw error }
        guard outcome == FCSYS_XML_OK else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw FeatureCacheError.parse("\(what): \(text.isEmpty ? "not well-formed" : text)")
        }
    }
}
