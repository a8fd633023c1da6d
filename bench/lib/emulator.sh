# SPDX-License-Identifier: Apache-2.0
# What the C benchmarks' scripts share (sourced from the project root):
#   build_benchmarks TARGET...  the release library and those benchmark programs (build/bench/)
#   start_emulator [OPTION...]  the ArcGIS emulator for the script's life (options as
#                               emulator-ctl.sh start takes them); its base URL in $base

build_benchmarks() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build --target "$@" -j"$(nproc)" >/dev/null
}

start_emulator() {
    emulator_state="$(mktemp -d)"
    trap 'Tests/servers/emulator-ctl.sh stop "$emulator_state"' EXIT
    base="$(Tests/servers/emulator-ctl.sh start "$emulator_state" "$@")"
}
