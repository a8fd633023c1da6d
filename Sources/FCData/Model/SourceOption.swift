// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// A setting one kind of source declares for its tables, as GDAL drivers declare
/// their open options: a name, what it does, the values it takes, and how the
/// source reads and changes it. Every option is set through one path
/// (`FeatureTable.setOption`); each protocol's typed calls (ArcGIS query format,
/// OGC API query language, WFS axis order…) are thin calls into it.
package struct SourceOption: Sendable {
    /// Lower-case words joined by `_`, e.g. `query_format`.
    package let name: String
    package let summary: String
    /// The values it takes, in the order documented (nil: any text).
    package let values: [String]?
    /// The current value; `metadata` is the table's when loaded (an option that
    /// needs it fails with `.invalidState` before).
    package let read: @Sendable (_ metadata: TableMetadata?) throws(FeatureCacheError) -> String
    /// Changes it (the value is one of `values` when they are listed); nil for
    /// an option that only reports.
    package let write: (@Sendable (String) throws(FeatureCacheError) -> Void)?

    package init(
        name: String, summary: String, values: [String]?,
        read: @escaping @Sendable (TableMetadata?) throws(FeatureCacheError) -> String,
        write: (@Sendable (String) throws(FeatureCacheError) -> Void)?
    ) {
        self.name = name
        self.summary = summary
        self.values = values
        self.read = read
        self.write = write
    }

    /// An option whose values are the cases of an `OptionValue` enum.
    package static func choice<Value: OptionValue>(
        _ name: String, _ summary: String,
        read: @escaping @Sendable (TableMetadata?) throws(FeatureCacheError) -> Value,
        write: (@Sendable (Value) throws(FeatureCacheError) -> Void)?
    ) -> SourceOption {
        let names = Value.allCases.map(\.optionValue)
        let reader: @Sendable (TableMetadata?) throws(FeatureCacheError) -> String = {
            (metadata: TableMetadata?) throws(FeatureCacheError) -> String in try read(metadata).optionValue
        }
        var writer: (@Sendable (String) throws(FeatureCacheError) -> Void)? = nil
        if let write {
            writer = { (text: String) throws(FeatureCacheError) -> Void in
                guard let value = Value.allCases.first(where: { $0.optionValue == text.lowercased() }) else {
                    throw FeatureCacheError.invalidArgument(
                        "'\(text)' is not a value of \(name) (it takes: \(names.joined(separator: ", ")))")
                }
                try write(value)
            }
        }
        return SourceOption(name: name, summary: summary, values: names, read: reader, write: writer)
    }

    /// An option that reports the table's `sourceFacts[name]` ("" when the
    /// service gave none); fails with `.invalidState` until the table is loaded.
    package static func fact(_ name: String, _ summary: String) -> SourceOption {
        SourceOption(
            name: name, summary: summary, values: nil,
            read: { (metadata: TableMetadata?) throws(FeatureCacheError) -> String in
                guard let metadata else { throw FeatureCacheError.invalidState("\(name) needs the table loaded") }
                return metadata.sourceFacts[name] ?? ""
            }, write: nil)
    }

    package var info: SourceOptionInfo {
        SourceOptionInfo(name: name, summary: summary, values: values, isWritable: write != nil)
    }
}

/// What a caller sees of an option a table's source declares.
public struct SourceOptionInfo: Sendable, Equatable {
    public let name: String
    public let summary: String
    /// The values it takes (nil: any text).
    public let values: [String]?
    /// False for an option that only reports (e.g. the query format in use).
    public let isWritable: Bool
}

/// An enum whose cases are the values of an option (`query_format`: `auto`,
/// `json`, `pbf`): each case names its value; reading one back is shared.
package protocol OptionValue: CaseIterable, Equatable, Sendable {
    /// The option value that names the case.
    var optionValue: String { get }
}

extension OptionValue {
    /// The case an option value names; the first case (each enum's `auto`) for
    /// any other text, which an option never reports.
    package init(optionValue: String) {
        self = Self.allCases.first { $0.optionValue == optionValue } ?? Self.allCases.first!
    }
}
