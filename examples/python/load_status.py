#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the load status transitions of a map → layer → table load, then the
table's metadata: the Python twin of examples/c/load_status.c.

    load_status.py [LAYER_URL]

Without LAYER_URL, the local emulator's Trees layer (FC_EMULATOR_URL)."""
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402


def main():
    if len(sys.argv) > 1:
        url = sys.argv[1]
    elif os.environ.get("FC_EMULATOR_URL"):
        url = os.environ["FC_EMULATOR_URL"] + "/arcgis/rest/services/Portland/FeatureServer/0"
    else:
        sys.exit("usage: load_status.py LAYER_URL   (or set FC_EMULATOR_URL)")
    print("FeatureCache %s: loading %s" % (fc.__version__, url))
    start = time.monotonic()
    print_lock = threading.Lock()

    def observer(name, loadable):
        def on_status(status):
            with print_lock:
                line = "%8.1f ms  %-5s %s" % ((time.monotonic() - start) * 1000, name, fc.STATUS_NAMES[status])
                if status == fc.LoadStatus.FAILED_TO_LOAD:
                    error = loadable.load_error
                    line += "  (%s: %s)" % (type(error).__name__, error)
                print(line, flush=True)
        return on_status

    with fc.Table.arcgis(url) as table, fc.Layer(table) as layer, fc.Map([layer]) as map_:
        for name, loadable in (("map", map_), ("layer", layer), ("table", table)):
            loadable.add_status_observer(observer(name, loadable))
        map_.wait(60)
        if layer.load_status != fc.LoadStatus.LOADED:
            return 1
        print("table '%s': %d fields, object ids in %s, wkid %d, %d features per page"
              % (table.name, len(table.fields), table.object_id_field, table.spatial_reference.wkid,
                 table.max_record_count))
        extent = table.extent
        print("extent: %.4f %.4f %.4f %.4f" % (extent.xmin, extent.ymin, extent.xmax, extent.ymax))
        print("layer scale range: 1:%.0f .. 1:%.0f" % (layer.min_scale, layer.max_scale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
