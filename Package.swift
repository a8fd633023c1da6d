// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// FeatureCache: a C-ABI feature-service client with a Swift core.
// SwiftPM is the single source of truth for the build; CMakeLists.txt drives it.
import PackageDescription

let package = Package(
    name: "FeatureCache",
    products: [
        // The C ABI. Built with -static-stdlib and a version script by scripts/build-lib.sh.
        .library(name: "featurecache", type: .dynamic, targets: ["FeatureCacheC"])
    ],
    targets: [
        // libcurl (HTTP), reached through non-variadic C wrappers (Swift cannot
        // call variadic functions such as curl_easy_setopt). Only FCTransport imports it.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // libxml2's streaming parser with safe options. Only FCData's XML reader imports it.
        .target(name: "CXML", dependencies: ["CLibXML2"]),
        // libxml2 through pkg-config (libxml-2.0), so its include folder comes
        // from the system or the packager's prefix, never a hard-coded path.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // PROJ (coordinate operations between any two CRSs) through pkg-config (proj).
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        // The Swift core: pure Swift API, no C types in its public surface, in
        // layers, each a target that depends only on the ones below it
        // (ARCHITECTURE.md). Crossings use `package` access. No unsafe flags, so
        // other packages can depend on this one; the builders a reader mutates
        // per value opt out of the dynamic exclusivity checks themselves
        // (@exclusivity(unchecked)).
        // Locks, thread-locals, events, the error type; the version from the header.
        .target(name: "FCSupport", dependencies: ["CFeatureCacheABI"]),
        // The data itself, in three folder layers check-layers.py keeps apart
        // (Model/Geometry, then Store/Results/Query, then Formats): one module,
        // because the readers call the builders and the coordinate scratch per
        // value, which must inline (a module boundary there cost the PBF reader
        // 31 %, measured by fc-bench-readers; cross-module optimization did not
        // recover it).
        .target(name: "FCData", dependencies: ["FCSupport", "CXML", "CPROJ"]),
        // libcurl, requests, redirects, retries, the client context.
        .target(name: "FCTransport", dependencies: ["FCSupport", "CCurl"]),
        // What a table does whatever the protocol: request modes, populate, tiles, maps, loadables.
        .target(name: "FCTables", dependencies: ["FCSupport", "FCData", "FCTransport"]),
        // What every service adapter shares: the adapter interface, the opening
        // probe, the service and its items, checks of a JSON answer.
        .target(name: "FCServices", dependencies: ["FCSupport", "FCData", "FCTransport", "FCTables"]),
        // The service adapters, a target each: each depends on the core layers,
        // none on another, so naming another adapter's type does not compile.
        .target(name: "FCArcGIS", dependencies: ["FCSupport", "FCData", "FCTransport", "FCTables", "FCServices"]),
        .target(name: "FCOGCAPI", dependencies: ["FCSupport", "FCData", "FCTransport", "FCTables", "FCServices"]),
        .target(name: "FCWFS", dependencies: ["FCSupport", "FCData", "FCTransport", "FCTables", "FCServices"]),
        .target(name: "FCDocument", dependencies: ["FCSupport", "FCData", "FCTransport", "FCTables", "FCServices"]),
        // The registry (the one list of adapters) and the opener; re-exports every target below.
        .target(
            name: "FeatureCache",
            dependencies: [
                "FCSupport", "FCData", "FCTransport", "FCTables", "FCServices", "FCArcGIS", "FCOGCAPI", "FCWFS", "FCDocument",
            ]
        ),
        // include/featurecache.h as a module: its types, for the shims.
        .target(name: "CFeatureCacheABI"),
        // Only the @_cdecl shims of include/featurecache.h, one file per C noun.
        .target(
            name: "FeatureCacheC",
            dependencies: ["FeatureCache", "CFeatureCacheABI"],
            exclude: ["exports.map"]
        ),
        // bench/: clock, file reads, repeated runs and formatting for the benchmarks.
        .target(name: "BenchSupport", path: "bench/Support"),
        // bench/: reader throughput and cache memory (figures in BENCHMARKS.md).
        .executableTarget(
            name: "fc-bench-readers",
            dependencies: ["FeatureCache", "BenchSupport"],
            path: "bench/ReaderBench"
        ),
        // bench/: viewport queries on a million cached points.
        .executableTarget(
            name: "fc-bench-query",
            dependencies: ["FeatureCache", "BenchSupport"],
            path: "bench/QueryBench"
        ),
        // bench/: the store from 100,000 to 50,000,000 points, in memory and out of core.
        .executableTarget(
            name: "fc-bench-outofcore",
            dependencies: ["FeatureCache", "BenchSupport"],
            path: "bench/OutOfCoreBench"
        ),
        // bench/: projecting a million points through PROJ (against pyproj).
        .executableTarget(
            name: "fc-bench-projection",
            dependencies: ["FCData", "BenchSupport"],
            path: "bench/ProjectionBench"
        ),
        // bench/: the GML reader alone on a saved WFS response.
        .executableTarget(
            name: "fc-bench-gml",
            dependencies: ["FeatureCache", "BenchSupport"],
            path: "bench/GMLBench"
        ),
        .testTarget(
            name: "FeatureCacheTests",
            dependencies: [
                "FeatureCache", "FCSupport", "FCData", "FCTransport", "FCTables", "FCServices", "FCArcGIS", "FCOGCAPI", "FCWFS",
                "FCDocument",
            ],
            exclude: ["Fixtures"]
        ),
    ]
)

// libFuzzer targets (Tests/fuzz, run by scripts/fuzz.sh): declared only when
// FEATURECACHE_FUZZ is set, since a fuzzer has no main of its own and links
// only with --sanitize=fuzzer.
if Context.environment["FEATURECACHE_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "fc-fuzz",
            dependencies: ["FeatureCache"],
            path: "Tests/fuzz/Sources"
        ))
}
