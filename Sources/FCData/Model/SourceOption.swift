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

    package init(name: String, summary: String, values: [String]?,
                 read: @escaping @Sendable (TableMetadata?) throws(FeatureCacheError) -> String,
                 write: (@Sendable (String) throws(FeatureCacheError) -> Void)?) {
        self.name = name
        self.summary = summary
        self.values = values
        self.read = read
        self.write = write
    }

    /// An option whose values name the cases of an enum (`spelled` gives each
    /// case's name, in the enum's order).
    package static func choice<Value: CaseIterable & Equatable & Sendable>(
        _ name: String, _ summary: String, spelled: @escaping @Sendable (Value) -> String,
        read: @escaping @Sendable (TableMetadata?) throws(FeatureCacheError) -> Value,
        write: (@Sendable (Value) throws(FeatureCacheError) -> Void)?
    ) -> SourceOption {
        let names: [String] = Value.allCases.map(spelled)
        let reader: @Sendable (TableMetadata?) throws(FeatureCacheError) -> String = { (metadata: TableMetadata?) throws(FeatureCacheError) -> String in
            spelled(try read(metadata))
        }
        var writer: (@Sendable (String) throws(FeatureCacheError) -> Void)? = nil
        if let write {
            writer = { (text: String) throws(FeatureCacheError) -> Void in
                guard let value = Value.allCases.first(where: { spelled($0) == text.lowercased() }) else {
                    throw FeatureCacheError.invalidArgument("'\(text)' is not a value of \(name) (it takes: \(names.joined(separator: ", ")))")
                }
                try write(value)
            }
        }
        return SourceOption(name: name, summary: summary, values: names, read: reader, write: writer)
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
