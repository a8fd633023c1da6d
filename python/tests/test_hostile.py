# SPDX-License-Identifier: Apache-2.0
"""Issue 13 from Python: retries, bounded work and context settings, and the
errors a host program sees instead of a crash."""
import pytest

import featurecache as fc


def test_transient_failures_are_retried_and_counted(ns):
    ns.fail("http503", count=2)
    table = fc.Table.arcgis(ns.layer_url())
    table.wait(30)
    assert ns.stats["requests"] == 3
    assert table.statistics.retries == 2
    # With retries off the first 503 is the answer, with its status.
    with fc.Context() as ctx:
        ctx.set_retry_policy(1)
        ns.fail("http503", count=1)
        with pytest.raises(fc.HTTPError) as failure:
            fc.Table.arcgis(ns.layer_url(), context=ctx).wait(30)
        assert failure.value.http_status == 503


def test_pages_per_operation_are_bounded(ns):
    with fc.Context() as ctx:
        ctx.set_work_limits(max_pages_per_operation=3)
        assert ctx.work_limits["max_pages_per_operation"] == 3
        table = fc.Table.arcgis(ns.layer_url(), context=ctx)
        table.wait(30)
        table.request_mode = fc.RequestMode.MANUAL_CACHE
        table.populate(fc.Query(where="OBJECTID <= 500"))
        cached = table.cached_feature_count
        # 20,000 features are 10 pages of 2,000: past the limit, and the cache is kept.
        with pytest.raises(fc.LimitError, match="max_pages_per_operation"):
            table.populate(fc.Query(where="OBJECTID <= 20000"), clear_cache=True)
        assert table.cached_feature_count == cached


def test_context_settings_are_checked():
    with fc.Context() as ctx:
        with pytest.raises(fc.InvalidArgumentError):
            ctx.set_retry_policy(0)
        with pytest.raises(fc.InvalidArgumentError):
            ctx.set_low_speed_limit(0, 30)
        with pytest.raises(fc.InvalidArgumentError):
            ctx.set_ca(pem_file="/nonexistent/ca.pem")
        with pytest.raises(fc.InvalidArgumentError):
            ctx.set_work_limits(max_tiles_per_view=0)
        with pytest.raises(TypeError):
            ctx.set_work_limits(max_everything=1)
        ctx.set_low_speed_limit(10, 5)
        ctx.set_ca(directory="/etc")
        ctx.set_ca()
        assert ctx.work_limits["max_tiles_per_view"] == 256


def test_deep_where_clauses_raise_instead_of_crashing(ns):
    table = fc.Table.arcgis(ns.layer_url())
    table.wait(30)
    with pytest.raises(fc.InvalidArgumentError, match="nested deeper than 100 levels"):
        table.definition_expression = "(" * 17500 + "OBJECTID = 1" + ")" * 17500
    assert fc.ProtocolError.__mro__[1] is fc.FeatureCacheError
