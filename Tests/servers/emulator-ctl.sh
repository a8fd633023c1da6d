#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts or stops the ArcGIS REST emulator (server-ctl.sh with arcgis_emulator.py).
#
#   emulator-ctl.sh start DIR [emulator args…]   # prints the base URL; DIR/url holds it
#   emulator-ctl.sh stop DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
action="${1:?start|stop}"
dir="${2:?state directory}"
shift 2
if [ "$action" = start ]; then
    exec "$here/server-ctl.sh" start "$dir" arcgis_emulator.py "$@"
fi
exec "$here/server-ctl.sh" "$action" "$dir"
