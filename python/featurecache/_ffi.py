# SPDX-License-Identifier: Apache-2.0
"""The one place that loads libfeaturecache and declares every C function's
argument and result types (see include/featurecache.h for their contracts)."""
import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, c_bool, c_char_p, c_double, c_int32, c_int64, c_size_t, c_uint8,
                    c_uint64, c_void_p)

_HERE = os.path.dirname(os.path.abspath(__file__))


# The major version of the C ABI this binding declares (FC_VERSION_MAJOR): the
# library it loads is the one with that SONAME.
ABI_MAJOR = 1
SONAME = "libfeaturecache.so.%d" % ABI_MAJOR
# The shared libraries of the system libfeaturecache links against (beyond
# libc): what a wheel needs on the machine (Debian: libcurl4, libxml2, libproj25).
NATIVE_DEPENDENCIES = ("libcurl.so.4", "libxml2.so.2", "libproj.so.25")


def _candidates():
    explicit = os.environ.get("FEATURECACHE_LIBRARY")
    if explicit:
        yield explicit
    yield os.path.join(_HERE, SONAME)
    root = os.path.dirname(os.path.dirname(_HERE))
    yield os.path.join(root, "build", "lib", SONAME)
    yield SONAME


def _load():
    errors = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            continue
        try:
            # CDLL (not PyDLL): calls release the GIL, so library threads can call back.
            return ctypes.CDLL(path)
        except OSError as error:
            errors.append("%s: %s" % (path, error))
    raise ImportError("%s not found (set FEATURECACHE_LIBRARY): %s" % (SONAME, "; ".join(errors)))


lib = _load()


class Envelope(ctypes.Structure):
    _fields_ = [("xmin", c_double), ("ymin", c_double), ("xmax", c_double), ("ymax", c_double), ("wkid", c_int32)]


class TableStatistics(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32)] + [(name, c_int64) for name in (
        "requests", "bytes_received", "features_received", "queries_local", "queries_server", "tiles_covered",
        "tiles_fetched", "tile_failures", "evictions", "server_filters_ignored", "next_links_repaired", "retries",
        "format_fallbacks")]


class WorkLimits(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32)] + [(name, c_int64) for name in (
        "max_tiles_per_view", "max_requests_per_view", "max_pages_per_operation", "max_features_per_operation",
        "max_buffered_bytes")]


class Progress(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("pages", c_int64), ("features", c_int64),
                ("total_features", c_int64)]


PROGRESS_CALLBACK = CFUNCTYPE(None, POINTER(Progress), c_void_p)


class PopulateOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("query", c_void_p), ("clear_cache", c_bool),
                ("progress", PROGRESS_CALLBACK), ("progress_user_data", c_void_p)]


class ApplyOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("rollback_on_failure", c_bool),
                ("progress", PROGRESS_CALLBACK), ("progress_user_data", c_void_p)]


class CacheInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("folder", c_char_p), ("read_only", ctypes.c_int32),
                ("offline", ctypes.c_int32), ("revalidation", ctypes.c_int32), ("last_save_status", ctypes.c_int32),
                ("saved_at", ctypes.c_double), ("restored_features", c_int64), ("restored_edits", c_int64),
                ("bytes_on_disk", c_int64), ("set_aside", c_char_p)]


class EditInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("object_id", c_int64), ("server_object_id", c_int64),
                ("kind", ctypes.c_int32), ("status", ctypes.c_int32), ("service_code", ctypes.c_int32),
                ("message", c_char_p), ("global_id", c_char_p), ("state", ctypes.c_int32), ("server_id", c_char_p)]


LOAD_CALLBACK = CFUNCTYPE(None, c_void_p, c_void_p, c_void_p)
STATUS_CALLBACK = CFUNCTYPE(None, c_void_p, c_int32, c_void_p)
OPERATION_CALLBACK = CFUNCTYPE(None, c_void_p, c_void_p)
FEATURES_CHANGED_CALLBACK = CFUNCTYPE(None, c_void_p, c_int64, c_void_p)

_status = c_int32
_handle = c_void_p
_out_handle = POINTER(c_void_p)
_out_str = POINTER(c_char_p)

_SIGNATURES = {
    # version, errors
    "fc_version": (c_char_p, []),
    "fc_version_number": (c_int32, []),
    "fc_last_error": (c_void_p, []),
    "fc_error_code": (_status, [c_void_p]),
    "fc_error_message": (c_char_p, [c_void_p]),
    "fc_error_http_status": (c_int32, [c_void_p]),
    "fc_error_service_code": (c_int32, [c_void_p]),
    "fc_status_name": (c_char_p, [_status]),
    "fc_string_free": (None, [c_void_p]),
    "fc_clear_last_error": (None, []),
    # context
    "fc_context_create": (_status, [_out_handle]),
    "fc_context_free": (None, [_handle]),
    "fc_context_set_timeouts": (_status, [_handle, c_double, c_double]),
    "fc_context_set_max_connections_per_host": (_status, [_handle, c_int32]),
    "fc_context_set_max_response_bytes": (_status, [_handle, c_int64]),
    "fc_context_set_user_agent": (_status, [_handle, c_char_p]),
    "fc_context_set_header": (_status, [_handle, c_char_p, c_char_p]),
    "fc_context_clear_headers": (_status, [_handle]),
    "fc_context_set_token": (_status, [_handle, c_char_p, c_int32]),
    "fc_context_set_ca_file": (_status, [_handle, c_char_p]),
    "fc_context_set_ca_path": (_status, [_handle, c_char_p]),
    "fc_context_set_retry_policy": (_status, [_handle, c_int32, c_double, c_double]),
    "fc_context_set_low_speed_limit": (_status, [_handle, c_int64, c_double]),
    "fc_context_get_work_limits": (_status, [_handle, ctypes.POINTER(WorkLimits)]),
    "fc_context_set_work_limits": (_status, [_handle, ctypes.POINTER(WorkLimits)]),
    # loadable
    "fc_loadable_load": (_status, [_handle, LOAD_CALLBACK, c_void_p]),
    "fc_loadable_retry_load": (_status, [_handle, LOAD_CALLBACK, c_void_p]),
    "fc_loadable_cancel_load": (_status, [_handle]),
    "fc_loadable_load_status": (_status, [_handle, POINTER(c_int32)]),
    "fc_loadable_load_error": (_status, [_handle, POINTER(c_void_p)]),
    "fc_loadable_add_status_observer": (_status, [_handle, STATUS_CALLBACK, c_void_p, POINTER(c_uint64)]),
    "fc_loadable_remove_status_observer": (_status, [_handle, c_uint64]),
    "fc_loadable_wait": (_status, [_handle, c_double]),
    # tables
    "fc_table_create_arcgis": (_status, [_handle, c_char_p, _out_handle]),
    "fc_table_create_ogc": (_status, [_handle, c_char_p, c_char_p, _out_handle]),
    "fc_table_as_ogc": (_status, [_handle, _out_handle]),
    "fc_ogc_table_set_query_language": (_status, [_handle, c_int32]),
    "fc_ogc_table_query_language": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_set_spatial_reference": (_status, [_handle, c_int32]),
    "fc_table_set_page_size": (_status, [_handle, c_int32]),
    # WFS
    "fc_table_create_wfs": (_status, [_handle, c_char_p, c_char_p, _out_handle]),
    "fc_table_as_wfs": (_status, [_handle, _out_handle]),
    "fc_wfs_table_set_axis_order": (_status, [_handle, c_int32]),
    "fc_wfs_table_axis_order": (_status, [_handle, POINTER(c_int32)]),
    "fc_wfs_table_set_filter_axis_order": (_status, [_handle, c_int32]),
    "fc_wfs_table_filter_axis_order": (_status, [_handle, POINTER(c_int32)]),
    "fc_wfs_table_set_output_format": (_status, [_handle, c_char_p]),
    "fc_wfs_table_output_format": (_status, [_handle, POINTER(c_void_p)]),
    "fc_wfs_table_populate_xml_start": (_status, [_handle, c_char_p, POINTER(PopulateOptions), OPERATION_CALLBACK,
                                                 c_void_p, _out_handle]),
    "fc_wfs_service_create": (_status, [_handle, c_char_p, _out_handle]),
    "fc_wfs_service_free": (None, [_handle]),
    "fc_wfs_service_as_loadable": (c_void_p, [_handle]),
    "fc_wfs_service_title": (_status, [_handle, _out_str]),
    "fc_wfs_service_version": (_status, [_handle, _out_str]),
    "fc_wfs_service_feature_type_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_wfs_service_feature_type_name": (_status, [_handle, c_int32, _out_str]),
    "fc_wfs_service_feature_type_title": (_status, [_handle, c_int32, _out_str]),
    "fc_wfs_service_create_table": (_status, [_handle, c_char_p, _out_handle]),
    # OGC API services
    "fc_arcgis_service_create": (_status, [_handle, c_char_p, _out_handle]),
    "fc_arcgis_service_free": (None, [_handle]),
    "fc_arcgis_service_as_loadable": (_handle, [_handle]),
    "fc_arcgis_service_description": (_status, [_handle, _out_str]),
    "fc_arcgis_service_version": (_status, [_handle, POINTER(c_double)]),
    "fc_arcgis_service_layer_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_arcgis_service_layer_id": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_arcgis_service_layer_name": (_status, [_handle, c_int32, _out_str]),
    "fc_arcgis_service_layer_geometry_type": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_arcgis_service_layer_is_table": (_status, [_handle, c_int32, POINTER(c_bool)]),
    "fc_arcgis_service_create_table": (_status, [_handle, c_int32, _out_handle]),
    "fc_table_open_start": (_status, [_handle, c_char_p, c_char_p, OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_operation_take_table": (_status, [_handle, _out_handle]),
    "fc_ogc_service_create": (_status, [_handle, c_char_p, _out_handle]),
    "fc_ogc_service_free": (None, [_handle]),
    "fc_ogc_service_as_loadable": (c_void_p, [_handle]),
    "fc_ogc_service_title": (_status, [_handle, _out_str]),
    "fc_ogc_service_collection_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_ogc_service_collection_id": (_status, [_handle, c_int32, _out_str]),
    "fc_ogc_service_collection_title": (_status, [_handle, c_int32, _out_str]),
    "fc_ogc_service_conforms_to": (_status, [_handle, c_char_p, POINTER(c_bool)]),
    "fc_ogc_service_create_table": (_status, [_handle, c_char_p, _out_handle]),
    "fc_table_free": (None, [_handle]),
    "fc_table_as_loadable": (c_void_p, [_handle]),
    "fc_table_service_kind": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_url": (_status, [_handle, _out_str]),
    "fc_service_open_start": (_status, [_handle, c_char_p, OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_operation_take_service": (_status, [_handle, _out_handle]),
    "fc_service_free": (None, [_handle]),
    "fc_service_kind": (_status, [_handle, POINTER(c_int32)]),
    "fc_service_title": (_status, [_handle, _out_str]),
    "fc_service_item_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_service_item_id": (_status, [_handle, c_int32, _out_str]),
    "fc_service_item_name": (_status, [_handle, c_int32, _out_str]),
    "fc_service_item_geometry_type": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_service_create_table": (_status, [_handle, c_char_p, _out_handle]),
    "fc_table_option_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_option_name": (_status, [_handle, c_int32, _out_str]),
    "fc_table_option_values": (_status, [_handle, c_int32, _out_str]),
    "fc_table_get_option": (_status, [_handle, c_char_p, POINTER(c_void_p)]),
    "fc_table_set_option": (_status, [_handle, c_char_p, c_char_p]),
    "fc_table_set_request_mode": (_status, [_handle, c_int32]),
    "fc_table_request_mode": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_name": (_status, [_handle, _out_str]),
    "fc_table_description": (_status, [_handle, _out_str]),
    "fc_table_field_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_field_name": (_status, [_handle, c_int32, _out_str]),
    "fc_table_field_alias": (_status, [_handle, c_int32, _out_str]),
    "fc_table_field_type": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_table_field_nullable": (_status, [_handle, c_int32, POINTER(c_bool)]),
    "fc_table_field_length": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_table_field_index": (_status, [_handle, c_char_p, POINTER(c_int32)]),
    "fc_table_geometry_type": (_status, [_handle, POINTER(c_int32)]),
    "fc_table_has_z": (_status, [_handle, POINTER(c_bool)]),
    "fc_table_has_m": (_status, [_handle, POINTER(c_bool)]),
    "fc_table_spatial_reference": (_status, [_handle, POINTER(c_int32), POINTER(c_int32)]),
    "fc_table_spatial_reference_definition": (_status, [_handle, c_int32, POINTER(c_char_p)]),
    "fc_projection_accuracy": (_status, [c_int32, c_int32, POINTER(c_double)]),
    "fc_table_extent": (_status, [_handle, POINTER(Envelope)]),
    "fc_table_object_id_field": (_status, [_handle, _out_str]),
    "fc_table_display_field": (_status, [_handle, _out_str]),
    "fc_table_max_record_count": (_status, [_handle, POINTER(c_int64)]),
    "fc_table_as_arcgis": (_status, [_handle, _out_handle]),
    "fc_arcgis_table_supports_pagination": (_status, [_handle, POINTER(c_bool)]),
    "fc_table_min_scale": (_status, [_handle, POINTER(c_double)]),
    "fc_table_max_scale": (_status, [_handle, POINTER(c_double)]),
    "fc_arcgis_table_capabilities": (_status, [_handle, _out_str]),
    "fc_arcgis_table_supported_query_formats": (_status, [_handle, _out_str]),
    "fc_arcgis_table_service_version": (_status, [_handle, POINTER(c_double)]),
    "fc_arcgis_table_set_query_format": (_status, [_handle, c_int32]),
    "fc_arcgis_table_query_format": (_status, [_handle, POINTER(c_int32)]),
    "fc_arcgis_table_query_format_in_use": (_status, [_handle, POINTER(c_int32)]),
    "fc_populate_options_init": (_status, [POINTER(PopulateOptions), c_size_t]),
    "fc_table_populate_start": (_status, [_handle, POINTER(PopulateOptions), OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_table_cached_feature_count": (_status, [_handle, POINTER(c_int64)]),
    # editing (1.3)
    "fc_feature_edit_create": (_status, [_out_handle]),
    "fc_feature_edit_free": (None, [_handle]),
    "fc_feature_edit_set_null": (_status, [_handle, c_char_p]),
    "fc_feature_edit_set_int64": (_status, [_handle, c_char_p, c_int64]),
    "fc_feature_edit_set_double": (_status, [_handle, c_char_p, c_double]),
    "fc_feature_edit_set_string": (_status, [_handle, c_char_p, c_char_p]),
    "fc_feature_edit_set_bool": (_status, [_handle, c_char_p, c_bool]),
    "fc_feature_edit_set_geometry_wkb": (_status, [_handle, c_char_p, c_size_t, c_int32]),
    "fc_feature_edit_clear_geometry": (_status, [_handle]),
    "fc_table_can_edit": (_status, [_handle, c_int32, POINTER(c_bool)]),
    "fc_table_add_feature": (_status, [_handle, _handle, POINTER(c_int64)]),
    "fc_table_update_feature": (_status, [_handle, c_int64, _handle]),
    "fc_table_delete_feature": (_status, [_handle, c_int64]),
    "fc_table_undo_edits": (_status, [_handle, POINTER(c_int64), c_size_t, POINTER(c_int64)]),
    "fc_table_has_local_edits": (_status, [_handle, POINTER(c_bool)]),
    "fc_table_get_local_edits": (_status, [_handle, _out_handle]),
    "fc_apply_options_init": (_status, [POINTER(ApplyOptions), c_size_t]),
    "fc_table_apply_edits_start": (_status, [_handle, POINTER(ApplyOptions), OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_operation_take_edit_list": (_status, [_handle, _out_handle]),
    "fc_edit_list_count": (_status, [_handle, POINTER(c_int64)]),
    "fc_edit_list_get": (_status, [_handle, c_int64, POINTER(EditInfo)]),
    "fc_edit_list_free": (None, [_handle]),
    "fc_table_get_server_id": (_status, [_handle, c_int64, POINTER(c_void_p)]),
    "fc_table_clear_cache": (_status, [_handle]),
    "fc_table_query_start": (_status, [_handle, _handle, OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_table_query_count_start": (_status, [_handle, _handle, OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_table_query_extent_start": (_status, [_handle, _handle, OPERATION_CALLBACK, c_void_p, _out_handle]),
    "fc_table_set_definition_expression": (_status, [_handle, c_char_p]),
    "fc_table_definition_expression": (_status, [_handle, POINTER(c_void_p)]),
    "fc_table_set_cache_budget": (_status, [_handle, c_int64]),
    "fc_table_cache_budget": (_status, [_handle, POINTER(c_int64)]),
    "fc_table_cached_bytes": (_status, [_handle, POINTER(c_int64)]),
    "fc_table_get_statistics": (_status, [_handle, POINTER(TableStatistics)]),
    "fc_context_set_cache_folder": (_status, [_handle, c_char_p, ctypes.c_double]),
    "fc_context_set_cache_disk_budget": (_status, [_handle, ctypes.c_int64]),
    "fc_context_set_cache_lock_wait": (_status, [_handle, ctypes.c_double]),
    "fc_table_flush_cache": (_status, [_handle]),
    "fc_table_set_cache_folder": (_status, [_handle, c_char_p, ctypes.c_double]),
    "fc_table_get_cache_info": (_status, [_handle, POINTER(CacheInfo)]),
    "fc_table_reset_statistics": (_status, [_handle]),
    "fc_layer_set_definition_expression": (_status, [_handle, c_char_p]),
    "fc_layer_set_features_changed_callback": (_status, [_handle, FEATURES_CHANGED_CALLBACK, c_void_p]),
    "fc_map_set_visible_extent": (_status, [_handle, POINTER(Envelope), c_double]),
    "fc_map_wait_idle": (_status, [_handle, c_double]),
    "fc_map_set_buffer_factor": (_status, [_handle, c_double]),
    "fc_map_buffer_factor": (_status, [_handle, POINTER(c_double)]),
    # queries
    "fc_query_create": (_status, [_out_handle]),
    "fc_query_copy": (_status, [_handle, _out_handle]),
    "fc_query_free": (None, [_handle]),
    "fc_query_set_where": (_status, [_handle, c_char_p]),
    "fc_query_set_envelope": (_status, [_handle, POINTER(Envelope)]),
    "fc_query_set_geometry_wkb": (_status, [_handle, c_char_p, c_size_t, c_int32]),
    "fc_query_set_spatial_relationship": (_status, [_handle, c_int32]),
    "fc_query_set_relation_parameter": (_status, [_handle, c_char_p]),
    "fc_query_set_out_fields": (_status, [_handle, c_char_p]),
    "fc_query_set_return_geometry": (_status, [_handle, c_bool]),
    "fc_query_set_max_features": (_status, [_handle, c_int64]),
    "fc_query_set_result_offset": (_status, [_handle, c_int64]),
    "fc_query_set_object_ids": (_status, [_handle, POINTER(c_int64), c_size_t]),
    "fc_query_set_order_by": (_status, [_handle, c_char_p]),
    "fc_query_set_max_allowable_offset": (_status, [_handle, c_double]),
    "fc_query_set_out_spatial_reference": (_status, [_handle, c_int32]),
    # operations
    "fc_operation_cancel": (_status, [_handle]),
    "fc_operation_wait": (_status, [_handle, c_double]),
    "fc_operation_is_finished": (_status, [_handle, POINTER(c_bool)]),
    "fc_operation_get_progress": (_status, [_handle, POINTER(Progress)]),
    "fc_operation_get_error": (_status, [_handle, POINTER(c_void_p)]),
    "fc_operation_take_result": (_status, [_handle, _out_handle]),
    "fc_operation_get_count": (_status, [_handle, POINTER(c_int64)]),
    "fc_operation_get_extent": (_status, [_handle, POINTER(Envelope)]),
    "fc_operation_free": (None, [_handle]),
    # results
    "fc_result_free": (None, [_handle]),
    "fc_result_count": (_status, [_handle, POINTER(c_int64)]),
    "fc_result_limit_exceeded": (_status, [_handle, POINTER(c_bool)]),
    "fc_result_is_complete": (_status, [_handle, POINTER(c_bool)]),
    "fc_result_wkid": (_status, [_handle, POINTER(c_int32)]),
    "fc_result_field_count": (_status, [_handle, POINTER(c_int32)]),
    "fc_result_field_name": (_status, [_handle, c_int32, _out_str]),
    "fc_result_field_type": (_status, [_handle, c_int32, POINTER(c_int32)]),
    "fc_result_field_index": (_status, [_handle, c_char_p, POINTER(c_int32)]),
    "fc_result_is_null": (_status, [_handle, c_int64, c_int32, POINTER(c_bool)]),
    "fc_result_get_int64": (_status, [_handle, c_int64, c_int32, POINTER(c_int64)]),
    "fc_result_get_double": (_status, [_handle, c_int64, c_int32, POINTER(c_double)]),
    "fc_result_get_string": (_status, [_handle, c_int64, c_int32, _out_str]),
    "fc_result_object_id": (_status, [_handle, c_int64, POINTER(c_int64)]),
    "fc_result_geometry_wkb": (_status, [_handle, c_int64, POINTER(POINTER(c_uint8)), POINTER(c_size_t)]),
    "fc_result_to_geojson": (_status, [_handle, POINTER(c_void_p)]),
    "fc_result_get_arrow_stream": (_status, [_handle, c_void_p]),  # struct ArrowArrayStream *
    # layers
    "fc_layer_create": (_status, [_handle, _out_handle]),
    "fc_layer_free": (None, [_handle]),
    "fc_layer_as_loadable": (c_void_p, [_handle]),
    "fc_layer_set_min_scale": (_status, [_handle, c_double]),
    "fc_layer_set_max_scale": (_status, [_handle, c_double]),
    "fc_layer_min_scale": (_status, [_handle, POINTER(c_double)]),
    "fc_layer_max_scale": (_status, [_handle, POINTER(c_double)]),
    # maps
    "fc_map_create": (_status, [_out_handle]),
    "fc_map_free": (None, [_handle]),
    "fc_map_as_loadable": (c_void_p, [_handle]),
    "fc_map_add_layer": (_status, [_handle, _handle]),
    "fc_map_layer_count": (_status, [_handle, POINTER(c_int32)]),
}

for _name, (_restype, _argtypes) in _SIGNATURES.items():
    _function = getattr(lib, _name)
    _function.restype = _restype
    _function.argtypes = _argtypes


def encode(text, name):
    """A Python str as UTF-8 bytes for C; None stays None."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError("%s must be a str, not %s" % (name, type(text).__name__))
    return text.encode("utf-8")


def decode(raw):
    return raw.decode("utf-8") if raw is not None else None


def owned_string(function, *args):
    """The string function(*args, &out) gives the caller, decoded; freed here."""
    pointer = c_void_p()
    status = function(*args, ctypes.byref(pointer))
    if status != 0:
        from .errors import check
        check(status)
    try:
        return decode(ctypes.cast(pointer, c_char_p).value)
    finally:
        lib.fc_string_free(pointer)
