#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A 60-step pan/zoom trace over the emulator's 200,000 trees, replayed in each
# request mode and with an OpenLayers-style bbox strategy (bench/trace/trace_bench.c).
#   bash bench/trace.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source bench/lib/emulator.sh
build_benchmarks trace_bench
start_emulator
build/bench/trace_bench "$base/arcgis/rest/services/Portland/FeatureServer/0"
