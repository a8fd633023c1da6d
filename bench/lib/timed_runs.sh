# SPDX-License-Identifier: Apache-2.0
# Shared by the populate benchmarks against real servers (bench/ogc.sh,
# bench/wfs.sh): runs a client several times under /usr/bin/time and reports
# wall time, client CPU (user + sys), peak memory (max RSS), and the requests and
# bytes the server's access log (combined format, bytes in field 10) recorded
# between two marker requests sent before and after the client ran.
#   source bench/lib/timed_runs.sh; rounds=3; run LABEL ACCESS_LOG MARKER_URL command...

# Sends marker request $2 to $1 and waits until access log $3 shows it (lighttpd
# buffers its log and writes it a few seconds later).
mark() {
    curl -s -o /dev/null "$1?fc-bench-marker=$2" || true
    for _ in $(seq 1 60); do
        grep -q "fc-bench-marker=$2" "$3" && return
        sleep 0.5
    done
    echo "marker $2 never reached $3" >&2
}

# requests and response MB logged between markers $2 and $3 of access log $1
between() {
    awk -v a="fc-bench-marker=$2" -v b="fc-bench-marker=$3" \
        'index($0, b) { on = 0 } on { n++; bytes += $10 } index($0, a) { on = 1 } END { printf "%d %.1f", n, bytes / 1048576 }' "$1"
}

run() {  # label log marker_url command...
    local label="$1" log="$2" marker_url="$3"; shift 3
    for round in $(seq 1 "${rounds:-3}"); do
        local start="start-$$-$RANDOM" end="end-$$-$RANDOM"
        mark "$marker_url" "$start" "$log"
        local out; out=$( { /usr/bin/time -f "TIME %e %U %S %M" "$@" >/tmp/fc-bench-run.out; } 2>&1 | grep '^TIME' )
        read -r _ wall user sys rss <<<"$out"
        mark "$marker_url" "$end" "$log"
        read -r requests mb <<<"$(between "$log" "$start" "$end")"
        printf "%-40s round %d: wall %6.2f s  cpu %6.2f s (%3.0f%% of wall)  peak %5.0f MB  requests %3d  %6.1f MB\n" \
            "$label" "$round" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "($user + $sys) * 100 / $wall" | bc -l)" \
            "$(echo "$rss / 1024" | bc -l)" "$requests" "$mb"
    done
}
