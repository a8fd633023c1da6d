# SPDX-License-Identifier: Apache-2.0
"""A query streamed from the service (Table.arrow_stream) read by polars and
DuckDB through the Arrow PyCapsule interface, with no pyarrow in the process:
the library's C stream is what they import."""
import os
import subprocess
import sys

from conftest import ROOT

PROGRAM = r'''
import sys
import featurecache as fc
import polars, duckdb
table = fc.Table.arcgis(sys.argv[1])
table.set_page_size(1000)
frame = polars.DataFrame(table.arrow_stream(where="OBJECTID <= 5000"))
assert frame.shape[0] == 5000 and frame["OBJECTID"].sum() == 5000 * 5001 // 2, frame.shape
stream = table.arrow_stream(where="OBJECTID <= 5000 AND Condition = 4")
count, total = duckdb.sql("select count(*), sum(OBJECTID) from stream").fetchall()[0]
expected = polars.DataFrame(table.arrow_stream(where="OBJECTID <= 5000 AND Condition = 4"))
assert count == expected.shape[0] > 0 and total == expected["OBJECTID"].sum(), (count, total)
assert "pyarrow" not in sys.modules, "pyarrow was imported"
print("ok")
'''


def test_polars_and_duckdb_read_the_stream_without_pyarrow(ns):
    env = dict(os.environ)
    if not env.get("FEATURECACHE_TEST_INSTALLED"):  # the checkout's binding, as conftest takes it
        env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, "-c", PROGRAM, ns.layer_url(0)], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
