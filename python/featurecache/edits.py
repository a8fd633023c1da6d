# SPDX-License-Identifier: Apache-2.0
"""Editing a table: local adds, updates and deletes, applied to the service.

Mixed into Table. Values are Python scalars (None, bool, int, float, str;
datetime.datetime and datetime.date for dates, as epoch milliseconds); a
geometry is WKB bytes or any object with a `wkb` attribute (shapely), in the
table's CRS unless crs= says another."""
import ctypes
import datetime
from collections import namedtuple

from . import _ffi
from .constants import EditKind, EditState, SyncMethod
from .crs import wkid_of
from .errors import check, error_for, from_error
from .operation import Operation

EditResult = namedtuple("EditResult", "object_id server_object_id kind error global_id state server_id")
SyncReport = namedtuple("SyncReport", "method uploaded refused conflicts added updated deleted features_received edits")
SyncReport.__doc__ = """What Table.synchronize did (fc_sync_result): its SyncMethod, the pending edits applied,
refused and conflicting (kept locally: the service changed the feature since it was cached), the features
added to, updated in and deleted from the cache, the features read from the service, and the apply's
EditResult for every pending edit (conflicts with a ConflictError)."""
EditResult.__doc__ = """One edit: pending or an apply's outcome, in state (EditState: APPLIED,
PENDING, IN_DOUBT - sent, its answer lost - or REFUSED). object_id is the id the caller
knows (negative for a local add), server_object_id the number the cache keeps the
service's feature under once applied, server_id the service's own id as it writes it
(an OGC API item id, a WFS gml:id, an ArcGIS object id as text; None for an add not
applied). error is the FeatureCacheError (ServiceError, ConflictError, ...) the edit was
refused with, or why it is in doubt; None when applied or simply pending."""

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _milliseconds(value):
    if isinstance(value, datetime.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
        return int((moment - _EPOCH).total_seconds() * 1000)
    return int((datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.timezone.utc) - _EPOCH)
               .total_seconds() * 1000)


class _FeatureEdit:
    """An fc_feature_edit built from properties and a geometry."""

    def __init__(self, properties, geometry, crs, clear_geometry=False):
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_feature_edit_create(ctypes.byref(out)))
        self._ptr = out.value
        try:
            for name, value in (properties or {}).items():
                self._set(name, value)
            if geometry is not None:
                wkb = bytes(geometry.wkb if hasattr(geometry, "wkb") else geometry)
                wkid = wkid_of(crs) if crs is not None else 0
                check(_ffi.lib.fc_feature_edit_set_geometry_wkb(self._ptr, wkb, len(wkb), wkid))
            elif clear_geometry:
                check(_ffi.lib.fc_feature_edit_clear_geometry(self._ptr))
        except BaseException:
            self.close()
            raise

    def _set(self, name, value):
        lib, ptr, key = _ffi.lib, self._ptr, _ffi.encode(name, "a field name")
        if value is None:
            check(lib.fc_feature_edit_set_null(ptr, key))
        elif isinstance(value, bool):
            check(lib.fc_feature_edit_set_bool(ptr, key, value))
        elif isinstance(value, int):
            check(lib.fc_feature_edit_set_int64(ptr, key, value))
        elif isinstance(value, float):
            check(lib.fc_feature_edit_set_double(ptr, key, value))
        elif isinstance(value, str):
            check(lib.fc_feature_edit_set_string(ptr, key, _ffi.encode(value, name)))
        elif isinstance(value, (datetime.datetime, datetime.date)):
            check(lib.fc_feature_edit_set_int64(ptr, key, _milliseconds(value)))
        else:
            raise TypeError("the value of %r is a %s: give None, bool, int, float, str or a date"
                            % (name, type(value).__name__))

    def close(self):
        if self._ptr:
            _ffi.lib.fc_feature_edit_free(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _edit_list(pointer):
    """The entries of an fc_edit_list (freed here)."""
    try:
        count = ctypes.c_int64()
        check(_ffi.lib.fc_edit_list_count(pointer, ctypes.byref(count)))
        entries = []
        for index in range(count.value):
            info = _ffi.EditInfo()
            info.struct_size = ctypes.sizeof(info)
            check(_ffi.lib.fc_edit_list_get(pointer, index, ctypes.byref(info)))
            message = _ffi.decode(info.message) or ""
            global_id = _ffi.decode(info.global_id) or ""
            error = error_for(info.status, message, service_code=info.service_code) if info.status else None
            server_id = _ffi.decode(info.server_id) or ""
            entries.append(EditResult(info.object_id, info.server_object_id, EditKind(info.kind), error, global_id or None,
                                      EditState(info.state), server_id or None))
        return entries
    finally:
        _ffi.lib.fc_edit_list_free(pointer)


def _take_edits(operation_ptr):
    """The outcomes; an apply that failed part-way raises its error carrying
    them (error.results: one EditResult per edit it was given)."""
    out = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_edit_list(operation_ptr, ctypes.byref(out)))
    results = _edit_list(out.value)
    failure = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_get_error(operation_ptr, ctypes.byref(failure)))
    if failure.value:
        error = from_error(failure.value)
        error.results = results
        raise error
    return results


def _take_sync(operation_ptr):
    """What a synchronize did; one that failed part-way raises its error
    carrying it (error.report: the SyncReport as far as it got)."""
    out = _ffi.SyncResult()
    out.struct_size = ctypes.sizeof(out)
    check(_ffi.lib.fc_operation_get_sync_result(operation_ptr, ctypes.byref(out)))
    edits = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_take_edit_list(operation_ptr, ctypes.byref(edits)))
    report = SyncReport(SyncMethod(out.method), out.uploaded, out.refused, out.conflicts, out.added, out.updated,
                        out.deleted, out.features_received, _edit_list(edits.value))
    failure = ctypes.c_void_p()
    check(_ffi.lib.fc_operation_get_error(operation_ptr, ctypes.byref(failure)))
    if failure.value:
        error = from_error(failure.value)
        error.report = report
        raise error
    return report


class Editing:
    """Table's editing methods (fc_table_add_feature and the rest)."""

    def can_edit(self, kind):
        """Whether the loaded table's service allows edits of kind (EditKind)."""
        out = ctypes.c_bool()
        check(_ffi.lib.fc_table_can_edit(self._ptr, int(EditKind(kind)), ctypes.byref(out)))
        return out.value

    def add(self, properties=None, geometry=None, crs=None):
        """Adds a feature locally; returns its local (negative) object id. Checked
        against the schema at once (InvalidArgumentError naming the field)."""
        out = ctypes.c_int64()
        with _FeatureEdit(properties, geometry, crs) as edit:
            check(_ffi.lib.fc_table_add_feature(self._ptr, edit._ptr, ctypes.byref(out)))
        return out.value

    def update(self, object_id, properties=None, geometry=None, crs=None, clear_geometry=False):
        """Updates a cached feature locally: the properties given (None sets NULL)
        and, when given, the geometry; the rest stay."""
        with _FeatureEdit(properties, geometry, crs, clear_geometry) as edit:
            check(_ffi.lib.fc_table_update_feature(self._ptr, int(object_id), edit._ptr))

    def delete(self, object_id):
        """Deletes a cached feature locally (a local add is dropped)."""
        check(_ffi.lib.fc_table_delete_feature(self._ptr, int(object_id)))

    def undo_edits(self, object_ids=None):
        """Undoes the pending edits of these features (all when None); returns how many."""
        out = ctypes.c_int64()
        if object_ids is None:
            check(_ffi.lib.fc_table_undo_edits(self._ptr, None, 0, ctypes.byref(out)))
        else:
            ids = (ctypes.c_int64 * len(object_ids))(*[int(i) for i in object_ids])
            check(_ffi.lib.fc_table_undo_edits(self._ptr, ids, len(object_ids), ctypes.byref(out)))
        return out.value

    @property
    def has_local_edits(self):
        out = ctypes.c_bool()
        check(_ffi.lib.fc_table_has_local_edits(self._ptr, ctypes.byref(out)))
        return out.value

    @property
    def local_edits(self):
        """The pending edits, in the order they were made (EditResult each)."""
        out = ctypes.c_void_p()
        check(_ffi.lib.fc_table_get_local_edits(self._ptr, ctypes.byref(out)))
        return _edit_list(out.value)

    def _start_with_options(self, struct, init, start_name, take, progress, callback, **fields):
        """Starts an operation that takes an options struct with progress (an
        apply, a synchronize): fields set on the defaults, progress wired."""
        table = self._ptr

        def start(done, key, out):
            options = struct()
            check(init(ctypes.byref(options), ctypes.sizeof(options)))
            for name, value in fields.items():
                setattr(options, name, value)
            if progress is not None:
                from .operation import _progress_trampoline
                options.progress = _progress_trampoline
                options.progress_user_data = key
            return getattr(_ffi.lib, start_name)(table, ctypes.byref(options), done, key, out)
        return Operation(progress, callback, take=take)._start(start)

    def apply_edits_async(self, rollback_on_failure=True, progress=None, callback=None):
        """Starts applying the pending edits; returns an Operation whose result()
        is a list of EditResult (one per edit the service answered for)."""
        return self._start_with_options(_ffi.ApplyOptions, _ffi.lib.fc_apply_options_init, "fc_table_apply_edits_start",
                                        _take_edits, progress, callback, rollback_on_failure=bool(rollback_on_failure))

    def synchronize_async(self, upload=True, rollback_on_failure=True, progress=None, callback=None):
        """Starts synchronize(); returns an Operation whose result() is a SyncReport."""
        return self._start_with_options(_ffi.SyncOptions, _ffi.lib.fc_sync_options_init, "fc_table_synchronize_start",
                                        _take_sync, progress, callback, upload=bool(upload),
                                        rollback_on_failure=bool(rollback_on_failure))

    def synchronize(self, upload=True, rollback_on_failure=True, progress=None, timeout=None):
        """Pending edits up, the service's changes down (fc_table_synchronize); returns a SyncReport.
        Edits of features the service changed since they were cached are conflicts: kept locally, not
        sent, listed in the report. Where the service tracks changes (ArcGIS ChangeTracking) only
        what changed is read; otherwise the populated features are fetched again. Raises when it
        stopped part-way (the error's report attribute says how far it got; the cache is as it was
        before the step that failed)."""
        with self.synchronize_async(upload, rollback_on_failure, progress) as operation:
            return operation.result(timeout)

    def server_id(self, object_id):
        """The service's own id of a cached feature as the service writes it (an
        OGC API item id, a WFS gml:id, an ArcGIS object id as text). NotFoundError
        for a local add, or a text id this table never read."""
        return _ffi.owned_string(_ffi.lib.fc_table_get_server_id, self._ptr, int(object_id))

    def apply_edits(self, rollback_on_failure=True, progress=None, timeout=None):
        """Applies the pending edits and returns a list of EditResult, one per
        pending edit: applied (error None, server_id the service's id) or refused
        (error set; the edit stays pending), or in doubt (its earlier answer lost,
        and no lookup could tell whether the service has it). Raises when a
        request got no answer (its edits stay pending, in doubt: the next apply
        asks the service before sending them again); the exception's results
        attribute then holds one EditResult per edit, the applied among them."""
        with self.apply_edits_async(rollback_on_failure, progress) as operation:
            return operation.result(timeout)
