# SPDX-License-Identifier: Apache-2.0
"""The package as `pip install .` leaves it (run by scripts/test-pip.sh with
FEATURECACHE_TEST_INSTALLED=1, from outside the checkout): imported from
site-packages, its own copy of the library loaded, no environment variables."""
import ctypes
import os

import pytest

import featurecache as fc
from featurecache import _ffi

pytestmark = pytest.mark.skipif(not os.environ.get("FEATURECACHE_TEST_INSTALLED"),
                                reason="checks an installed package (scripts/test-pip.sh)")


def test_imported_from_site_packages_with_its_own_library():
    from conftest import ROOT
    package = os.path.dirname(os.path.abspath(fc.__file__))
    assert "site-packages" in package and not package.startswith(ROOT)
    assert "FEATURECACHE_LIBRARY" not in os.environ
    assert os.path.exists(os.path.join(package, _ffi.SONAME))
    assert os.path.exists(os.path.join(package, "py.typed"))
    # The library loaded is the package's copy.
    mapped = [line.split()[-1] for line in open("/proc/self/maps") if _ffi.SONAME in line]
    assert mapped and all(path.startswith(package) for path in mapped)
    assert fc.__version__ == ctypes.cast(_ffi.lib.fc_version(), ctypes.c_char_p).value.decode()


def test_the_command_line_tool_runs_from_the_package(ns, tmp_path):
    """python -m featurecache and the featurecache script both run the tool
    the wheel carries, which finds the package's library on its own, into
    every format."""
    import shutil
    import subprocess
    import sys
    version = subprocess.run([sys.executable, "-m", "featurecache", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.strip() == "featurecache " + fc.__version__
    script = shutil.which("featurecache", path=os.path.dirname(sys.executable))
    assert script, "pip installed no featurecache script"
    # Every format, read back and compared feature by feature as test_cli does.
    from test_cli import FORMATS, assert_same_features, read_output
    box = (-122.6, 45.5, -122.55, 45.55)
    expected = fc.read_dataframe(ns.layer_url(0), bbox=box)
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for suffix in FORMATS:
        out = str(tmp_path / ("trees." + suffix))
        done = subprocess.run([script, "dump", ns.layer_url(0), "--bbox", ",".join(map(str, box)), "-o", out],
                              capture_output=True, text=True, timeout=300, env=environment)
        assert done.returncode == 0, (suffix, done.stderr)
        assert_same_features(expected, read_output(out), "OBJECTID")
