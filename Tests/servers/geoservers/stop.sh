#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stop the servers started by start.sh (only the PIDs recorded in $GEOSERVERS_HOME/servers.pids).
# Usage: stop.sh [--clean | --purge]
#   --clean  also delete the generated data and rendered configs (keeps the venv)
#   --purge  delete the whole $GEOSERVERS_HOME (venv included)
set -uo pipefail
GH="${GEOSERVERS_HOME:-/tmp/featurecache-geoservers}"
PIDS="$GH/servers.pids"
if [ -s "$PIDS" ]; then
  while read -r name pid; do
    [ -n "${pid:-}" ] || continue
    if kill -0 "$pid" 2>/dev/null; then
      cmd=$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)
      case "$cmd" in
        *gunicorn*|*lighttpd*|*postgres*|*uvicorn*) ;;
        *) echo "stop.sh: pid $pid ($name) is not ours any more ($cmd); skipping" >&2; continue ;;
      esac
      sig=TERM; [ "$name" = postgres ] && sig=INT     # INT = postgres "fast" shutdown
      kill -$sig "$pid" 2>/dev/null
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
      echo "stopped $name (pid $pid)"
    fi
  done < <(tac "$PIDS")   # reverse start order: postgres last
  rm -f "$PIDS" "$GH/servers.env"
else
  echo "stop.sh: nothing recorded in $PIDS"
fi
case "${1:-}" in
  --clean) rm -rf "$GH/data" "$GH/pygeoapi" "$GH/mapserver" "$GH/qgis" "$GH/tipg" "$GH/pg"; echo "removed data, configs and the PostGIS cluster under $GH" ;;
  --purge) rm -rf "$GH"; echo "removed $GH" ;;
esac
