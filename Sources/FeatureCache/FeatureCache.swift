// SPDX-License-Identifier: Apache-2.0
// The library's Swift face: the service adapters live in this target, and every
// layer below is re-exported, so `import FeatureCache` sees the whole core (the C
// shims, the benchmarks and the tests need no other import).
@_exported import FCSupport
@_exported import FCData
@_exported import FCTransport
@_exported import FCTables
