#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs examples/c/offline.c (or its Python twin: pass "python3 examples/python/offline.py")
# three times against the emulator's editable layer behind lossy_proxy.py: with the
# service up, with the proxy stopped, and with it started again on the same port.
# Prints each run's output after "run N:".
#
#   Tests/examples/offline.sh PROGRAM...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
emulator="${FC_EMULATOR_URL:-$(cat "${FC_EMULATOR_URL_FILE:?set FC_EMULATOR_URL or FC_EMULATOR_URL_FILE}")}"
state="$(mktemp -d)"
folder="$state/cache"
trap 'bash "$here/servers/server-ctl.sh" stop "$state/proxy" >/dev/null 2>&1 || true; rm -rf "$state"' EXIT
namespace="example-offline-$$"
curl -fsS "$emulator/_control/$namespace/reset" >/dev/null
proxy="$(bash "$here/servers/server-ctl.sh" start "$state/proxy" lossy_proxy.py --upstream "$emulator")"
port="${proxy##*:}"
url="$proxy/ns/$namespace/arcgis/rest/services/Editable/FeatureServer/0"
echo "run 1:"
"$@" "$folder" "$url"
bash "$here/servers/server-ctl.sh" stop "$state/proxy" >/dev/null
echo "run 2:"
"$@" "$folder" "$url"
bash "$here/servers/server-ctl.sh" start "$state/proxy" lossy_proxy.py --upstream "$emulator" --port "$port" >/dev/null
echo "run 3:"
"$@" "$folder" "$url"
