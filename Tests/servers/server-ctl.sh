#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts or stops one of the project's Python test servers, idempotently, with
# its state in DIR. The server writes its base URL to the file --url-file names.
#
#   server-ctl.sh start DIR SCRIPT [server args…]   # prints the base URL; DIR/url holds it
#   server-ctl.sh stop DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
action="${1:?start|stop}"
dir="${2:?state directory}"
shift 2
mkdir -p "$dir"
pidfile="$dir/pid"

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

case "$action" in
start)
    script="${1:?server script, e.g. arcgis_emulator.py}"
    shift
    if running && [ -s "$dir/url" ]; then cat "$dir/url"; exit 0; fi
    rm -f "$dir/url"
    nohup python3 "$here/$script" --url-file "$dir/url" "$@" >"$dir/log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    for _ in $(seq 1 300); do
        if [ -s "$dir/url" ]; then cat "$dir/url"; exit 0; fi
        if ! running; then break; fi
        sleep 0.1
    done
    echo "$script did not start; its log:" >&2
    cat "$dir/log" >&2
    exit 1
    ;;
stop)
    if running; then kill "$(cat "$pidfile")"; fi
    rm -f "$pidfile" "$dir/url"
    ;;
*)
    echo "usage: $0 start DIR SCRIPT [args…] | stop DIR" >&2
    exit 2
    ;;
esac
