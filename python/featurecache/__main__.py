# SPDX-License-Identifier: Apache-2.0
"""``python -m featurecache`` (and the ``featurecache`` script pip installs):
the command-line tool built with the library and shipped inside the package
(tools/featurecache/ in the source; ``featurecache --help``).

One format is written here rather than by the program: GeoParquet
(``dump … -o FILE.parquet`` or ``-f GeoParquet``), with pyarrow. The program
writes an Arrow IPC stream beside the output (every other option is its own:
filters, resuming, errors, exit codes), and the stream becomes a GeoParquet
1.1 file (WKB geometry, the layer's CRS as PROJJSON), written under a
temporary name and renamed when whole, as the program writes its files."""
import json
import os
import signal
import subprocess
import sys


def _program():
    """The tool: FEATURECACHE_CLI when set (a build tree's), else the package's copy."""
    return os.environ.get("FEATURECACHE_CLI") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin",
                                                              "featurecache")


def _option(args, short, long):
    """(index of the value, value) of an option given as -x V, --long V or --long=V; (None, None) if absent."""
    for i, arg in enumerate(args):
        if arg in (short, long) and i + 1 < len(args):
            return i + 1, args[i + 1]
        if arg.startswith(long + "="):
            return i, arg[len(long) + 1:]
    return None, None


def _geoparquet_target(args):
    """The output path when a dump asks for GeoParquet, else None."""
    if not args or args[0] != "dump":
        return None
    _, output = _option(args, "-o", "--output")
    _, fmt = _option(args, "-f", "--format")
    if fmt is not None:
        return output if fmt.lower() == "geoparquet" else None
    return output if output and output.lower().endswith((".parquet", ".geoparquet")) else None


def _fail(message, code):
    sys.stderr.write("featurecache: %s\n" % message)
    return code


def _geo_metadata(field):
    """GeoParquet's "geo" metadata for the WKB column: the CRS as PROJJSON when
    the library gave it (or pyproj can make it), null (unknown) otherwise."""
    extension = json.loads((field.metadata or {}).get(b"ARROW:extension:metadata", b"{}") or b"{}")
    crs = extension.get("crs")
    if extension.get("crs_type") != "projjson" and crs is not None:
        try:
            import pyproj
            crs = pyproj.CRS.from_user_input(crs).to_json_dict()
        except Exception:  # no pyproj, or a system it cannot read: unknown rather than wrong
            crs = None
    column = {"encoding": "WKB", "geometry_types": [], "crs": crs}
    return {"version": "1.1.0", "primary_column": field.name, "columns": {field.name: column}}


def _dump_geoparquet(program, args, output):
    try:
        import pyarrow.ipc
        import pyarrow.parquet
    except ImportError:
        return _fail("GeoParquet is written with pyarrow, which is not installed (pip install pyarrow)", 2)
    folder, name = os.path.split(output)
    stream = os.path.join(folder, ".%s.featurecache-%d.arrows" % (name, os.getpid()))
    temporary = os.path.join(folder, ".%s.featurecache-%d.tmp" % (name, os.getpid()))
    index, _ = _option(args, "-o", "--output")
    args = list(args)
    args[index] = stream if args[index] == output else "--output=" + stream
    fmt_index, _ = _option(args, "-f", "--format")
    if fmt_index is not None:
        args[fmt_index] = "ArrowStream" if args[fmt_index].lower() == "geoparquet" else "--format=ArrowStream"
    child = subprocess.Popen([program] + args)
    # A kill asked of us is the program's too: it removes its files and exits.
    signal.signal(signal.SIGTERM, lambda *_: child.send_signal(signal.SIGTERM))
    try:
        while True:
            try:
                code = child.wait()
                break
            except KeyboardInterrupt:  # the program got the Ctrl-C too: it stops and says so
                continue
        if code != 0:
            return code
        with open(stream, "rb") as source:
            table = pyarrow.ipc.open_stream(source).read_all()
        geometry = next((f for f in table.schema if (f.metadata or {}).get(b"ARROW:extension:name") == b"geoarrow.wkb"),
                        None)
        metadata = dict(table.schema.metadata or {})
        if geometry is not None:
            metadata[b"geo"] = json.dumps(_geo_metadata(geometry)).encode()
        pyarrow.parquet.write_table(table.replace_schema_metadata(metadata), temporary)
        os.replace(temporary, output)
        return 0
    except OSError as error:
        return _fail("cannot write %s: %s" % (output, error.strerror or error), 8)
    finally:
        for path in (stream, temporary):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def main():
    program = _program()
    if not os.access(program, os.X_OK):
        sys.stderr.write("featurecache: the command-line tool is not in this copy of the package "
                         "(it is built by `pip install`, or CMake as build/bin/featurecache)\n")
        return 1
    args = sys.argv[1:]
    output = _geoparquet_target(args)
    if output is None:
        os.execv(program, [program] + args)
    if output == "-":
        return _fail("GeoParquet cannot be written to standard output", 2)
    return _dump_geoparquet(program, args, output)


if __name__ == "__main__":
    sys.exit(main())
