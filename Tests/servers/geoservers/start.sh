#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start real geospatial feature servers on loopback, all serving the same generated data:
#   pygeoapi (OGC API - Features)            http://127.0.0.1:${PYGEOAPI_PORT:-5001}/
#   MapServer 8 (WFS 1.0/1.1/2.0, OGC API)   http://127.0.0.1:${MAPSERVER_PORT:-5002}/cgi-bin/mapserv
#   QGIS Server 3.22 (WFS 1.0/1.1, OGC API)  http://127.0.0.1:${QGIS_PORT:-5003}/qgis  (OGC API: /qgis/wfs3)
#   tipg 1.6 (OGC API over PostGIS)          http://127.0.0.1:${TIPG_PORT:-5004}/
#   PostgreSQL/PostGIS 15 (for pygeoapi's CQL-capable collections trees_pg, buildings_pg)
#                                            127.0.0.1:${PGPORT:-5433} (user postgres, db geo)
# Usage: start.sh [--big] [--regen] [--no-install] [--no-postgis]
#   --big         200,000 trees instead of 20,000 (regenerates data if the count differs)
#   --no-postgis  skip PostgreSQL/PostGIS, the *_pg pygeoapi collections and tipg
#   --regen       regenerate the data even if present
#   --no-install  fail instead of running apt-get / pip when something is missing
# Env: GEOSERVERS_HOME (state dir, default /tmp/featurecache-geoservers), PYGEOAPI_PORT, MAPSERVER_PORT,
#      QGIS_PORT, TIPG_PORT, PGPORT, TREES
# Idempotent: installs only what is missing, reuses data, and does nothing if already running.
# Writes $GEOSERVERS_HOME/servers.pids (used by stop.sh) and $GEOSERVERS_HOME/servers.env.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GH="${GEOSERVERS_HOME:-/tmp/featurecache-geoservers}"
HOST=127.0.0.1
PYGEOAPI_PORT="${PYGEOAPI_PORT:-5001}"
MAPSERVER_PORT="${MAPSERVER_PORT:-5002}"
QGIS_PORT="${QGIS_PORT:-5003}"
TIPG_PORT="${TIPG_PORT:-5004}"
PGPORT="${PGPORT:-5433}"
TREES="${TREES:-20000}"
REGEN=0; INSTALL=1; POSTGIS=1
for a in "$@"; do
  case "$a" in
    --big) TREES=200000 ;;
    --regen) REGEN=1 ;;
    --no-install) INSTALL=0 ;;
    --no-postgis) POSTGIS=0 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "start.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
PIDS="$GH/servers.pids"
ENVF="$GH/servers.env"
DATA="$GH/data"
VENV="$GH/venv"
TIPG_VENV="$GH/tipg-venv"
PYGEOAPI_URL="http://$HOST:$PYGEOAPI_PORT"
MAPSERV_URL="http://$HOST:$MAPSERVER_PORT/cgi-bin/mapserv"
MS_OGCAPI_URL="$MAPSERV_URL/features/ogcapi"
QGIS_URL="http://$HOST:$QGIS_PORT/qgis"
TIPG_URL="http://$HOST:$TIPG_PORT"
T0=$(date +%s.%N)
log() { echo "[start.sh $(date +%T)] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }
print_urls() {
  cat <<URLS
pygeoapi (OGC API - Features):   $PYGEOAPI_URL/            collections: trees roads buildings trees_geojson$([ "$POSTGIS" = 1 ] && echo " trees_pg buildings_pg")
MapServer WFS 1.0/1.1/2.0:       $MAPSERV_URL?SERVICE=WFS&REQUEST=GetCapabilities   typenames: ms:trees ms:roads ms:buildings
MapServer OGC API - Features:    $MS_OGCAPI_URL/           collections: trees roads buildings
QGIS Server WFS 1.0/1.1:         $QGIS_URL?SERVICE=WFS&REQUEST=GetCapabilities   typenames: trees roads buildings
QGIS Server OGC API - Features:  $QGIS_URL/wfs3            collections: trees roads buildings
MapServer WFS, national grid:    $MAPSERV_URL?MAP=national   typename: ms:bonn_trees (EPSG:25832 only)
QGIS Server WFS, national grid:  http://$HOST:$QGIS_PORT/national   typename: bonn_trees (EPSG:25832 only)
$([ "$POSTGIS" = 1 ] && echo "tipg OGC API - Features:         $TIPG_URL/            collections: public.trees public.roads public.buildings")
data:                            $DATA  (expected.json = ground-truth counts)
env file:                        $ENVF
URLS
}
port_busy() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

mkdir -p "$GH"

# ---- already running? -------------------------------------------------------------------
if [ -s "$PIDS" ]; then
  alive=1
  while read -r _name pid; do kill -0 "$pid" 2>/dev/null || alive=0; done < "$PIDS"
  if [ "$alive" = 1 ]; then log "already running (pids in $PIDS)"; print_urls; exit 0; fi
  log "stale pid file, stopping leftovers"; "$HERE/stop.sh" || true
fi

# ---- 1. Debian packages -----------------------------------------------------------------
APT_PKGS="cgi-mapserver mapserver-bin gdal-bin lighttpd libsqlite3-mod-spatialite python3-venv curl qgis-server python3-qgis"
[ "$POSTGIS" = 1 ] && APT_PKGS="$APT_PKGS postgresql-15 postgresql-15-postgis-3"
missing=""
for p in $APT_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$INSTALL" = 1 ] || die "missing Debian packages:$missing"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  log "apt-get install$missing"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
log "apt ok ($(elapsed)s)"

# ---- 2. pygeoapi virtualenv (Debian's python3: its sqlite3 allows load_extension) ---------
if ! "$VENV/bin/python" -c 'import pygeoapi, gunicorn, psycopg2, geoalchemy2' 2>/dev/null; then
  [ "$INSTALL" = 1 ] || die "pygeoapi venv missing at $VENV"
  log "creating $VENV and pip-installing pygeoapi + gunicorn"
  rm -rf "$VENV"
  /usr/bin/python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
      -c "$HERE/pygeoapi/constraints.txt" pygeoapi gunicorn psycopg2-binary SQLAlchemy GeoAlchemy2
fi
log "venv ok ($(elapsed)s): pygeoapi $("$VENV/bin/python" -c 'import pygeoapi; print(pygeoapi.__version__)')"
# tipg in a venv of its own: its FastAPI/pydantic pins are not pygeoapi's.
if [ "$POSTGIS" = 1 ] && ! "$TIPG_VENV/bin/python" -c 'import tipg, uvicorn' 2>/dev/null; then
  [ "$INSTALL" = 1 ] || die "tipg venv missing at $TIPG_VENV"
  log "creating $TIPG_VENV and pip-installing tipg + uvicorn"
  rm -rf "$TIPG_VENV"
  /usr/bin/python3 -m venv "$TIPG_VENV"
  "$TIPG_VENV/bin/pip" install -q --disable-pip-version-check -c "$HERE/tipg/constraints.txt" tipg uvicorn
fi

# ---- 3. data ------------------------------------------------------------------------------
have_trees=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['trees']['count'])" \
             "$DATA/expected.json" 2>/dev/null || echo 0)
if [ "$REGEN" = 1 ] || [ "$have_trees" != "$TREES" ] || [ ! -s "$DATA/features.gpkg" ] \
   || [ ! -s "$DATA/shp/trees.shp" ] || [ ! -s "$DATA/shp/bonn_trees.shp" ] || [ ! -s "$DATA/edits.gpkg" ]; then
  log "generating data ($TREES trees) in $DATA"
  rm -rf "$DATA"
  /usr/bin/python3 "$HERE/make_data.py" --out "$DATA" --trees "$TREES"
fi
log "data ok ($(elapsed)s)"

# ---- 4. render configs --------------------------------------------------------------------
render() {  # template output port
  sed -e "s|@DATA@|$DATA|g" -e "s|@HOME@|$GH|g" -e "s|@HOST@|$HOST|g" -e "s|@PORT@|$3|g" "$1" > "$2"
}
mkdir -p "$GH/pygeoapi" "$GH/mapserver/cgi-bin" "$GH/mapserver/www" "$GH/mapserver/ogcapi-templates" "$GH/qgis" "$GH/tipg"
render "$HERE/pygeoapi/config.yml.in" "$GH/pygeoapi/config.yml" "$PYGEOAPI_PORT"
[ "$POSTGIS" = 1 ] && sed -e "s|@PGPORT@|$PGPORT|g" "$HERE/pygeoapi/postgis.yml.in" >> "$GH/pygeoapi/config.yml"
for f in features.map national.map mapserver.conf lighttpd.conf; do
  render "$HERE/mapserver/$f.in" "$GH/mapserver/$f" "$MAPSERVER_PORT"
done
ln -sf /usr/lib/cgi-bin/mapserv "$GH/mapserver/cgi-bin/mapserv"
echo '<html><body><a href="/cgi-bin/mapserv?SERVICE=WFS&amp;REQUEST=GetCapabilities">WFS</a></body></html>' \
  > "$GH/mapserver/www/index.html"
# Whole documents of features, served as files: the generated layers as GeoJSON and
# real recorded ArcGIS query answers as Esri JSON (Tests/FeatureCacheTests/Fixtures).
rm -rf "$GH/mapserver/documents"; mkdir -p "$GH/mapserver/documents"
for l in trees roads buildings; do cp "$DATA/$l.geojson" "$GH/mapserver/documents/"; done
cp "$HERE"/../../FeatureCacheTests/Fixtures/arcgis-rest/*/*-0.json \
   "$HERE"/../../FeatureCacheTests/Fixtures/arcgis-rest/us-il-cook/page-*.json "$GH/mapserver/documents/"
# and a static OGC API - Features tree of files (lighttpd sends ETag and Last-Modified).
python3 "$HERE/make_static_ogc.py" "$DATA/trees.geojson" "$GH/mapserver/documents/ogc" /documents/ogc
export PYGEOAPI_CONFIG="$GH/pygeoapi/config.yml" PYGEOAPI_OPENAPI="$GH/pygeoapi/openapi.yml"
lighttpd -tt -f "$GH/mapserver/lighttpd.conf" >/dev/null || die "bad lighttpd config"
render "$HERE/qgis/lighttpd.conf.in" "$GH/qgis/lighttpd.conf" "$QGIS_PORT"
lighttpd -tt -f "$GH/qgis/lighttpd.conf" >/dev/null || die "bad lighttpd config for QGIS Server"
if [ ! -s "$GH/qgis/features.qgs" ] || [ "$DATA/features.gpkg" -nt "$GH/qgis/features.qgs" ]; then
  /usr/bin/python3 "$HERE/qgis/make_project.py" "$DATA/features.gpkg" "$GH/qgis/features.qgs" "$QGIS_URL" \
    > "$GH/qgis/make_project.log" 2>&1 || die "QGIS project not written (see $GH/qgis/make_project.log)"
fi
# The editable project: inspections, open to WFS-T (reset-edits.sh restores the seed).
if [ ! -s "$GH/qgis/edits.qgs" ] || [ "$DATA/edits.gpkg" -nt "$GH/qgis/edits.qgs" ]; then
  /usr/bin/python3 "$HERE/qgis/make_project.py" "$DATA/edits.gpkg" "$GH/qgis/edits.qgs" \
    "http://$HOST:$QGIS_PORT/edits" inspections "" editable \
    > "$GH/qgis/make_project_edits.log" 2>&1 || die "QGIS edits project not written (see $GH/qgis/make_project_edits.log)"
fi
# The national-grid project: Bonn's trees in EPSG:25832, the only system it offers.
if [ ! -s "$GH/qgis/national.qgs" ] || [ "$DATA/national.gpkg" -nt "$GH/qgis/national.qgs" ]; then
  /usr/bin/python3 "$HERE/qgis/make_project.py" "$DATA/national.gpkg" "$GH/qgis/national.qgs" \
    "http://$HOST:$QGIS_PORT/national" bonn_trees EPSG:25832 \
    > "$GH/qgis/make_project_national.log" 2>&1 || die "QGIS national project not written (see $GH/qgis/make_project_national.log)"
fi

# ---- 5. start -----------------------------------------------------------------------------
port_busy "$PYGEOAPI_PORT" && die "port $PYGEOAPI_PORT already in use"
port_busy "$MAPSERVER_PORT" && die "port $MAPSERVER_PORT already in use"
port_busy "$QGIS_PORT" && die "port $QGIS_PORT already in use"
[ "$POSTGIS" = 1 ] && port_busy "$TIPG_PORT" && die "port $TIPG_PORT already in use"
: > "$PIDS"
if [ "$POSTGIS" = 1 ]; then
  # own cluster under $GH/pg (Debian's default 15/main cluster is left alone)
  PGBIN=/usr/lib/postgresql/15/bin
  PGD="$GH/pg"
  port_busy "$PGPORT" && die "port $PGPORT already in use"
  if [ ! -s "$PGD/data/PG_VERSION" ]; then
    rm -rf "$PGD"; mkdir -p "$PGD/run"; chown -R postgres:postgres "$PGD"
    runuser -u postgres -- "$PGBIN/initdb" -D "$PGD/data" -A trust -U postgres -E UTF8 \
      --locale=C.UTF-8 > "$PGD/initdb.log" 2>&1 || die "initdb failed (see $PGD/initdb.log)"
  fi
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/pg.log" -w -t 60 \
    -o "-p $PGPORT -k $PGD/run -c listen_addresses=$HOST -c fsync=off" start > /dev/null \
    || die "postgres did not start (see $PGD/pg.log)"
  echo "postgres $(head -1 "$PGD/data/postmaster.pid")" >> "$PIDS"
  stamp=$(md5sum < "$DATA/expected.json" | cut -c1-32)
  if [ "$(cat "$PGD/loaded.stamp" 2>/dev/null)" != "$stamp" ]; then
    log "loading data into PostGIS"
    PSQL="runuser -u postgres -- env PGOPTIONS=-cclient_min_messages=warning psql -q -h $HOST -p $PGPORT -U postgres"
    $PSQL -d postgres -c "DROP DATABASE IF EXISTS geo" -c "CREATE DATABASE geo" >/dev/null
    $PSQL -d geo -c "CREATE EXTENSION postgis" >/dev/null
    for l in trees roads buildings; do
      ogr2ogr -f PostgreSQL "PG:host=$HOST port=$PGPORT user=postgres dbname=geo" "$DATA/features.gpkg" \
        "$l" -nln "$l" -lco GEOMETRY_NAME=geom -lco FID=fid -lco LAUNDER=NO -overwrite \
        || die "ogr2ogr to PostGIS failed"
    done
    echo "$stamp" > "$PGD/loaded.stamp"
  fi
  # The PostGIS-backed editable layer QGIS Server publishes at /checked: its
  # CHECK constraints refuse a Status outside 1-3 and a NULL Inspector, which
  # the published schema does not say (reset-edits.sh fills it).
  runuser -u postgres -- env PGOPTIONS=-cclient_min_messages=warning psql -q -h $HOST -p $PGPORT -U postgres -d geo -c \
    'CREATE TABLE IF NOT EXISTS checked_inspections (fid bigserial PRIMARY KEY,
       "Status" bigint CONSTRAINT status_known CHECK ("Status" BETWEEN 1 AND 3), "Score" double precision,
       "Inspector" text, "Notes" text, geom geometry(Point, 4326),
       CONSTRAINT inspector_named CHECK ("Inspector" IS NOT NULL))' >/dev/null || die "checked_inspections not created"
  if [ ! -s "$GH/qgis/checked.qgs" ]; then
    /usr/bin/python3 "$HERE/qgis/make_project.py" "host=$HOST port=$PGPORT dbname=geo user=postgres sslmode=disable" \
      "$GH/qgis/checked.qgs" "http://$HOST:$QGIS_PORT/checked" pg:checked_inspections "" editable \
      > "$GH/qgis/make_project_checked.log" 2>&1 || die "QGIS checked project not written (see $GH/qgis/make_project_checked.log)"
  fi
  log "postgis ok ($(elapsed)s)"
fi
# The editable layers (QGIS Server's GeoPackage, pygeoapi's TinyDB file) at their seed.
GEOSERVERS_HOME="$GH" bash "$HERE/reset-edits.sh" || die "reset-edits.sh failed"
# OpenAPI document (pygeoapi inspects every provider, so PostGIS must already be up)
"$VENV/bin/pygeoapi" openapi generate "$PYGEOAPI_CONFIG" --output-file "$PYGEOAPI_OPENAPI" >/dev/null 2>&1 \
  || { "$HERE/stop.sh" >/dev/null; die "pygeoapi openapi generate failed"; }
( cd "$GH/pygeoapi" && exec setsid "$VENV/bin/gunicorn" --workers 2 --bind "$HOST:$PYGEOAPI_PORT" \
    --access-logfile "$GH/pygeoapi/access.log" --error-logfile "$GH/pygeoapi/error.log" \
    pygeoapi.flask_app:APP ) > "$GH/pygeoapi/gunicorn.out" 2>&1 < /dev/null &
echo "pygeoapi $!" >> "$PIDS"
rm -f "$GH/mapserver/ms_error.log"
setsid lighttpd -D -f "$GH/mapserver/lighttpd.conf" > "$GH/mapserver/lighttpd.out" 2>&1 < /dev/null &
echo "mapserver $!" >> "$PIDS"
setsid lighttpd -D -f "$GH/qgis/lighttpd.conf" > "$GH/qgis/lighttpd.out" 2>&1 < /dev/null &
echo "qgis $!" >> "$PIDS"
if [ "$POSTGIS" = 1 ]; then
  ( cd "$GH/tipg" && DATABASE_URL="postgresql://postgres@$HOST:$PGPORT/geo" TIPG_DB_SCHEMAS='["public"]' \
      exec setsid "$TIPG_VENV/bin/uvicorn" tipg.main:app --host "$HOST" --port "$TIPG_PORT" --no-access-log ) \
      > "$GH/tipg/uvicorn.out" 2>&1 < /dev/null &
  echo "tipg $!" >> "$PIDS"
fi

# ---- 6. wait until all answer -------------------------------------------------------------
ok_py=0; ok_ms=0; ok_qgis=0; ok_tipg=$((1 - POSTGIS))
for _ in $(seq 1 300); do
  [ $ok_py = 1 ] || { curl -sf -o /dev/null "$PYGEOAPI_URL/collections?f=json" && ok_py=1; } || true
  [ $ok_ms = 1 ] || { curl -sf "$MAPSERV_URL?SERVICE=WFS&REQUEST=GetCapabilities&VERSION=2.0.0" 2>/dev/null \
                        | grep -q WFS_Capabilities && ok_ms=1; } || true
  [ $ok_qgis = 1 ] || { curl -sf "$QGIS_URL?SERVICE=WFS&REQUEST=GetCapabilities&VERSION=1.1.0" 2>/dev/null \
                        | grep -q WFS_Capabilities && ok_qgis=1; } || true
  [ $ok_tipg = 1 ] || { curl -sf -o /dev/null "$TIPG_URL/collections" && ok_tipg=1; } || true
  [ $ok_py = 1 ] && [ $ok_ms = 1 ] && [ $ok_qgis = 1 ] && [ $ok_tipg = 1 ] && break
  sleep 0.2
done
if [ $ok_py != 1 ] || [ $ok_ms != 1 ] || [ $ok_qgis != 1 ] || [ $ok_tipg != 1 ]; then
  log "pygeoapi up=$ok_py mapserver up=$ok_ms qgis up=$ok_qgis tipg up=$ok_tipg; logs in $GH/*/"
  tail -5 "$GH/pygeoapi/error.log" "$GH/mapserver/lighttpd-error.log" "$GH/qgis/lighttpd-error.log" \
    "$GH/tipg/uvicorn.out" 2>/dev/null >&2 || true
  "$HERE/stop.sh" || true
  exit 1
fi
cat > "$ENVF" <<ENV
PYGEOAPI_URL=$PYGEOAPI_URL
MAPSERVER_WFS_URL=$MAPSERV_URL
MAPSERVER_OGCAPI_URL=$MS_OGCAPI_URL
DOCUMENTS_URL=http://$HOST:$MAPSERVER_PORT/documents
STATIC_OGCAPI_URL=http://$HOST:$MAPSERVER_PORT/documents/ogc
QGIS_WFS_URL=$QGIS_URL
MAPSERVER_NATIONAL_WFS_URL=$MAPSERV_URL?MAP=national
QGIS_NATIONAL_WFS_URL=http://$HOST:$QGIS_PORT/national
QGIS_EDITS_WFS_URL=http://$HOST:$QGIS_PORT/edits
QGIS_OGCAPI_URL=$QGIS_URL/wfs3
TIPG_URL=$TIPG_URL
GEOSERVERS_DATA=$DATA
GEOSERVERS_EXPECTED=$DATA/expected.json
PYGEOAPI_POSTGIS=$POSTGIS
PGPORT=$PGPORT
ENV
log "servers up in $(elapsed)s total"
print_urls
