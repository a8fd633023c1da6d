# SPDX-License-Identifier: Apache-2.0
"""The persisted cache from Python: Context(cache_dir=...), Table.cache_info, a
second run that answers a covered view from disk, and a corrupt file set aside."""
import glob
import os

import featurecache as fc

PORTLAND = (-123.0, 45.0, -122.0, 46.0)


def open_table(ns, folder):
    context = fc.Context(cache_dir=folder)
    table = fc.Table.arcgis(ns.layer_url(0, service="Editable"), context=context)
    table.request_mode = fc.RequestMode.ON_INTERACTION_CACHE
    table.wait(timeout=60)
    return table


def test_second_run_answers_from_disk(ns, tmp_path):
    folder = str(tmp_path / "cache")
    table = open_table(ns, folder)
    info = table.cache_info
    assert info.folder.startswith(folder) and info.revalidation == fc.CacheRevalidation.NONE
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    table.close()

    table = open_table(ns, folder)
    info = table.cache_info
    assert info.revalidation == fc.CacheRevalidation.UNCHANGED
    assert info.restored_features == 200 and info.bytes_on_disk > 0 and not info.offline
    before = table.statistics.requests
    assert len(table.query(fc.Query(bbox=PORTLAND))) == 200
    assert table.statistics.requests == before
    table.close()

    # A corrupted features file is set aside; the table starts empty and says why.
    (features,) = glob.glob(os.path.join(folder, "*", "features.fcc"))
    with open(features, "r+b") as f:
        f.seek(os.path.getsize(features) // 2)
        f.write(b"\xff\x00\xff")
    table = open_table(ns, folder)
    assert "checksum" in table.cache_info.set_aside
    assert table.cache_info.restored_features == 0
    table.close()
    assert glob.glob(os.path.join(folder, "*", "features.fcc.corrupt-*"))
