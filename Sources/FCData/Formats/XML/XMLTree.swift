// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A small element tree for the documents that are read whole and are small —
/// capabilities, schemas, exception reports — built by the streaming parser with
/// the same safety rules. Feature responses never become a tree (see `GMLReader`).
package final class XMLElement {
    package let name: String
    package let namespace: String
    package let attributes: [(name: String, value: String)]
    package private(set) var children: [XMLElement] = []
    fileprivate var textBytes: [UInt8] = []

    package init(name: String, namespace: String, attributes: [(name: String, value: String)]) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
    }

    /// The element's own text, trimmed.
    package var text: String {
        textBytes.withUnsafeBytes { String(decoding: XMLBytes.trimmed($0), as: UTF8.self) }
    }

    package func attribute(_ local: String) -> String? {
        attributes.first { $0.name == local }?.value ?? attributes.first { $0.name.lowercased() == local.lowercased() }?.value
    }

    /// The first child with this local name (any namespace).
    package func child(_ local: String) -> XMLElement? { children.first { $0.name == local } }

    package func children(_ local: String) -> [XMLElement] { children.filter { $0.name == local } }

    /// The first element at any depth below with this local name.
    package func descendant(_ local: String) -> XMLElement? {
        for child in children {
            if child.name == local { return child }
            if let found = child.descendant(local) { return found }
        }
        return nil
    }

    /// Every element below with this local name, in document order.
    package func descendants(_ local: String) -> [XMLElement] {
        var found: [XMLElement] = []
        for child in children {
            if child.name == local { found.append(child) }
            found += child.descendants(local)
        }
        return found
    }

    /// The text of the child `local`, "" when absent.
    package func childText(_ local: String) -> String { child(local)?.text ?? "" }

    /// Parses a document into a tree (its root element).
    package static func parse(_ bytes: UnsafeRawBufferPointer, what: String = "XML") throws(FeatureCacheError) -> XMLElement {
        let builder = TreeBuilder()
        try XMLStream.parse(bytes, into: builder, what: what)
        guard let root = builder.root else { throw FeatureCacheError.parse("\(what): no root element") }
        return root
    }

    package static func parse(_ bytes: [UInt8], what: String = "XML") throws(FeatureCacheError) -> XMLElement {
        try bytes.withBytes { (raw) throws(FeatureCacheError) in try parse(raw, what: what) }
    }
}

private final class TreeBuilder: XMLEventSink {
    var root: XMLElement?
    var stack: [XMLElement] = []
    /// Text kept per element, so a hostile document cannot grow the tree without bound.
    static let maxText = 1 << 20

    func start(_ tag: XMLStartTag) throws(FeatureCacheError) {
        let element = XMLElement(name: tag.name, namespace: tag.namespaceURI, attributes: tag.allAttributes)
        if let parent = stack.last { parent.append(element) } else { root = element }
        stack.append(element)
    }

    func end() throws(FeatureCacheError) { stack.removeLast() }

    func text(_ bytes: UnsafeRawBufferPointer) {
        guard let current = stack.last, current.textBytes.count + bytes.count <= Self.maxText else { return }
        current.textBytes.append(contentsOf: bytes)
    }
}

private extension XMLElement {
    func append(_ child: XMLElement) { children.append(child) }
}
