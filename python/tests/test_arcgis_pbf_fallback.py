# SPDX-License-Identifier: Apache-2.0
"""A layer that lists PBF but cannot answer in PBF (issue 31, part 4), against
the emulator's Hosted service with its PBF queries made to fail: the service's
error, or HTTP 500 with an error document, asks the operation again in JSON,
counts it, and keeps the table on JSON; a caller's explicit format, transient
failures and errors JSON gives too are not the format's doing."""
import pytest

import featurecache as fc

PARCELS = "OBJECTID <= 40"


def formats_asked(ns):
    return [entry[3] for entry in ns.stats["log"] if entry[2] == "query"]


def hosted(ns):
    table = fc.Table.arcgis(ns.layer_url(1, "Hosted"))
    table.wait(30)
    assert table.query_format_in_use == fc.QueryFormat.PBF
    return table


@pytest.mark.parametrize("mode", ["error", "http500json"])
def test_a_refused_pbf_query_is_asked_again_in_json(ns, mode):
    table = hosted(ns)
    ns.control("fail", mode=mode, count=-1, param="f=pbf")
    result = table.populate(fc.Query(where=PARCELS))
    assert len(result) == 40 and table.cached_feature_count == 40
    assert formats_asked(ns) == ["pbf", "json"]
    assert table.statistics.format_fallbacks == 1
    # The table remembers: the next operation asks in JSON at once.
    assert table.query_format == fc.QueryFormat.AUTO and table.query_format_in_use == fc.QueryFormat.JSON
    table.populate(fc.Query(where="OBJECTID <= 10"))
    assert "pbf" not in formats_asked(ns)[2:]
    assert table.statistics.format_fallbacks == 1


def test_an_explicit_pbf_format_gets_no_fallback(ns):
    table = hosted(ns)
    table.query_format = fc.QueryFormat.PBF
    ns.control("fail", mode="error", count=-1, param="f=pbf")
    with pytest.raises(fc.ServiceError, match="Injected failure"):
        table.populate(fc.Query(where=PARCELS))
    assert formats_asked(ns) == ["pbf"] and table.statistics.format_fallbacks == 0
    assert table.cached_feature_count == 0


def test_when_json_fails_too_the_message_says_both_and_the_table_stays_on_pbf(ns):
    table = hosted(ns)
    ns.control("fail", mode="error", count=2, match="query")
    with pytest.raises(fc.ServiceError) as failed:
        table.populate(fc.Query(where=PARCELS))
    assert "asked in JSON after the layer answered PBF with" in str(failed.value)
    assert formats_asked(ns) == ["pbf", "json"] and table.statistics.format_fallbacks == 1
    assert table.cached_feature_count == 0
    assert table.query_format_in_use == fc.QueryFormat.PBF  # not the format's doing
    assert len(table.populate(fc.Query(where=PARCELS))) == 40
    assert formats_asked(ns)[-1] == "pbf"


@pytest.mark.parametrize("mode, error", [("http500", fc.HTTPError), ("http503", fc.HTTPError), ("token", fc.ServiceError)])
def test_failures_that_are_not_the_format_fail_as_they_are(ns, mode, error):
    """A 500 without an error document, a busy server (after its retries), a token error."""
    table = hosted(ns)
    ns.control("fail", mode=mode, count=-1, param="f=pbf")
    with pytest.raises(error):
        table.populate(fc.Query(where=PARCELS))
    assert set(formats_asked(ns)) == {"pbf"} and table.statistics.format_fallbacks == 0
    assert table.query_format_in_use == fc.QueryFormat.PBF
