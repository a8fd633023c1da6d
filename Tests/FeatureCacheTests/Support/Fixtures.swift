// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif

/// The checked-in fixtures, found next to this source file.
enum Fixtures {
    static let directory: String = {
        var path = #filePath
        for _ in 0..<2 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/Fixtures"
    }()

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        let path = directory + "/" + relativePath
        guard let file = fopen(path, "rb") else { throw FixtureError.missing(path) }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }

    /// Relative paths of the files under `folder` whose names end with `suffix`.
    static func files(in folder: String, suffix: String) -> [String] {
        var result: [String] = []
        func walk(_ relative: String) {
            guard let dir = opendir(directory + "/" + relative) else { return }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name.hasPrefix(".") { continue }
                let child = relative + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) { walk(child) } else if name.hasSuffix(suffix) { result.append(child) }
            }
        }
        walk(folder)
        return result.sorted()
    }

    enum FixtureError: Error { case missing(String) }
}
