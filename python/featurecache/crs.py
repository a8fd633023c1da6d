# SPDX-License-Identifier: Apache-2.0
"""The spatial references a caller may name: what the library takes is a wkid
(an EPSG code, or Esri's own such as 102719 through PROJ's ESRI authority)."""
import re

_CODE = re.compile(r"^\s*(?:(EPSG|ESRI)\s*:\s*)?(\d+)\s*$", re.IGNORECASE)


def wkid_of(crs):
    """The wkid of crs: an int, "EPSG:25832", "ESRI:102719", "25832", or a
    pyproj.CRS (or WKT, when pyproj is installed) that carries an EPSG or ESRI
    code. ValueError for anything else."""
    if isinstance(crs, bool):
        raise ValueError("a CRS is a code, not %r" % crs)
    if isinstance(crs, int):
        return crs
    if isinstance(crs, str):
        match = _CODE.match(crs)
        if match:
            return int(match.group(2))
    to_authority = getattr(crs, "to_authority", None)
    if to_authority is None and isinstance(crs, str):
        try:
            import pyproj
        except ImportError:
            raise ValueError("%r is not an EPSG or ESRI code (WKT needs pyproj to find its code)" % _short(crs)) from None
        try:
            to_authority = pyproj.CRS.from_user_input(crs).to_authority
        except pyproj.exceptions.CRSError as error:
            raise ValueError("%r is not a CRS pyproj can read: %s" % (_short(crs), error)) from None
    if to_authority is not None:
        for authority in ("EPSG", "ESRI"):
            found = to_authority(auth_name=authority)
            if found:
                return int(found[1])
        raise ValueError("%s has no EPSG or ESRI code the library can ask services for" % _short(str(crs)))
    raise ValueError("%r is not a CRS (an EPSG or ESRI code, a pyproj.CRS, or WKT)" % (crs,))


def _short(text):
    return text if len(text) <= 60 else text[:57] + "..."


def projection_accuracy(source, target):
    """PROJ's accuracy in metres of the transformation the library uses from source
    to target (codes, or anything wkid_of takes): 0.0 for an exact conversion, None
    when PROJ does not know it (a ballpark transformation)."""
    import ctypes

    from . import _ffi
    from .errors import check

    value = ctypes.c_double()
    check(_ffi.lib.fc_projection_accuracy(wkid_of(source), wkid_of(target), ctypes.byref(value)))
    return None if value.value < 0 else value.value
