// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCTransport

/// What every protocol's loadable service is made of: the URL its requests are
/// built from, the context they go through, and its load state. The ArcGIS REST,
/// OGC API and WFS services subclass it and add their `performLoad` and what
/// their load reads (a `LoadedValue`).
///
/// `@unchecked Sendable`: every stored property is a `let` of a Sendable type;
/// subclasses keep to that.
open class ServiceEndpoint: @unchecked Sendable {
    public let loadMachine: LoadMachine
    public let context: ClientContext
    /// Where requests start: the caller's URL as the protocol normalised it.
    package let endpoint: RequestURL

    package init(endpoint: RequestURL, context: ClientContext, label: String) {
        self.endpoint = endpoint
        self.context = context
        loadMachine = LoadMachine(label: label)
    }

    /// The endpoint, credentials included (redact it before showing it).
    public var url: String { endpoint.string }
}
