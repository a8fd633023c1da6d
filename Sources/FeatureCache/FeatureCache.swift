// SPDX-License-Identifier: Apache-2.0
// The library's Swift face: the registry and the opener live in this target, and
// every target below (the adapters too) is re-exported, so `import FeatureCache`
// sees the whole core (the C shims, the benchmarks and the tests need no other import).
@_exported import FCSupport
@_exported import FCData
@_exported import FCTransport
@_exported import FCTables
@_exported import FCServices
@_exported import FCArcGIS
@_exported import FCOGCAPI
@_exported import FCWFS
@_exported import FCDocument
