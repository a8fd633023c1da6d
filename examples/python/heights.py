# SPDX-License-Identifier: Apache-2.0
"""Heights and measures: a layer whose geometry carries Z and M, populated, and
its first features' vertices printed with both (the twin of examples/c/heights.c).

    python3 heights.py [LAYER_URL]

Without LAYER_URL, the local emulator's Pipes layer (FC_EMULATOR_URL)."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import featurecache as fc  # noqa: E402


def describe(wkb, most=3):
    """A LineString's vertices from little-endian ISO WKB, with Z and M when it has them."""
    kind = struct.unpack_from("<I", wkb, 1)[0]
    z, m = kind // 1000 in (1, 3), kind // 1000 >= 2
    if kind % 1000 != 2:
        return "    (WKB type %d)" % kind
    count = struct.unpack_from("<I", wkb, 5)[0]
    width = 2 + z + m
    text = "    LineString%s%s, %d vertices:" % (" Z" if z else "", "M" if m else "", count)
    for i in range(min(count, most)):
        values = struct.unpack_from("<%dd" % width, wkb, 9 + 8 * width * i)
        text += " (%.5f %.5f" % values[:2]
        if z:
            text += " z %.2f" % values[2]
        if m:
            text += " m %.1f" % values[2 + z]
        text += ")"
    return text + (" …" if count > most else "")


def main():
    if len(sys.argv) > 1:
        url = sys.argv[1]
    elif os.environ.get("FC_EMULATOR_URL"):
        url = os.environ["FC_EMULATOR_URL"] + "/arcgis/rest/services/Portland/FeatureServer/3"
    else:
        print("usage: heights.py LAYER_URL (or set FC_EMULATOR_URL)", file=sys.stderr)
        return 2
    with fc.Table.arcgis(url) as table:
        table.wait(30)
        print("%s: heights %s, measures %s" % (table.name, "yes" if table.has_z else "no", "yes" if table.has_m else "no"))
        result = table.populate(fc.Query(where="OBJECTID <= 3", order_by="OBJECTID"))
        for row in range(len(result)):
            print("  #%d" % result.object_id(row))
            wkb = result.wkb(row)
            if wkb:
                print(describe(wkb))
    return 0


if __name__ == "__main__":
    sys.exit(main())
