// SPDX-License-Identifier: Apache-2.0
// featurecache.hpp against the emulator: RAII owners, errors as exceptions with
// their status, HTTP status and service code, and callbacks whose exceptions
// never unwind into the library (a throwing callback used to end the host
// process with SIGABRT) but reach the callback error handler.
#include <featurecache.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace fc = featurecache;

static int passed = 0, failed = 0;
#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (cond) {                                                                   \
            passed++;                                                                 \
        } else {                                                                      \
            failed++;                                                                 \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                             \
    } while (0)

static std::string emulator_layer(int layer) {
    const char *file = std::getenv("FC_EMULATOR_URL_FILE");
    std::string base;
    if (file) std::getline(std::ifstream(file), base);
    if (base.empty() && std::getenv("FC_EMULATOR_URL")) base = std::getenv("FC_EMULATOR_URL");
    return base + "/ns/cpp-" + std::to_string(layer) + "/arcgis/rest/services/Portland/FeatureServer/" +
           std::to_string(layer);
}

int main() {
    // The handler runs on library threads: what it records is guarded.
    std::atomic<int> handled{0};
    std::mutex mutex;
    std::string last_message;
    fc::set_callback_error_handler([&](std::exception_ptr error) {
        std::string message;
        try {
            std::rethrow_exception(error);
        } catch (const std::exception &e) {
            message = e.what();
        } catch (...) {
            message = "not a std::exception";
        }
        std::lock_guard<std::mutex> lock(mutex);
        last_message = message;
        handled++;
    });
    auto last = [&] {
        std::lock_guard<std::mutex> lock(mutex);
        return last_message;
    };

    // A throwing load callback: the load settles, the process goes on.
    fc::Table table = fc::Table::arcgis(emulator_layer(0));
    table.set_request_mode(FC_REQUEST_MODE_MANUAL_CACHE);
    std::atomic<int> statuses{0};
    uint64_t token = table.add_status_observer([&](int32_t) {
        statuses++;
        throw std::runtime_error("from a status observer");
    });
    table.load([](const fc::Error *) { throw std::runtime_error("from a load callback"); });
    table.wait(30);
    CHECK(table.load_status() == FC_LOAD_STATUS_LOADED);
    CHECK(statuses == 2);                    // LOADING, LOADED
    table.remove_status_observer(token);
    fc::Table moved = std::move(table);      // owners move; the handle goes with them
    CHECK(moved.name() == "Trees");

    // Progress and operation callbacks that throw; the populate still succeeds.
    fc::Query query;
    query.where("OBJECTID <= 4500");
    fc::PopulateOptions options;
    options.query = &query;
    options.progress = [](const fc_progress &) { throw std::runtime_error("from progress"); };
    // A change observer: the populate's features, told as added (removing it
    // waits until every change made before has been told).
    std::atomic<int64_t> added{0};
    std::atomic<int32_t> cause{0};
    uint64_t observer = moved.add_change_observer([&](const fc_change &change) {
        added += change.added_count;
        cause = change.cause;
    });
    std::atomic<int64_t> counted{-1};
    fc::Operation operation = moved.populate_async(options, [&](fc::OperationView finished) {
        counted = finished.take_result().size();
        throw std::logic_error("from a done callback");
    });
    CHECK(operation.wait(60));
    CHECK(counted == 4500);
    CHECK(moved.cached_feature_count() == 4500);
    moved.remove_change_observer(observer);
    CHECK(added == 4500 && cause == FC_CHANGE_POPULATE);
    CHECK(handled >= 2 + 3 + 1);  // load, 2 statuses, 3 pages of progress, done
    CHECK(last() == "from a done callback");

    // A layer's features-changed callback that throws.
    fc::Layer layer(moved);
    std::atomic<int64_t> changed{0};
    layer.on_features_changed([&](int64_t features) {
        changed = features;
        throw 42;  // not even a std::exception
    });
    fc::Result all = moved.populate();
    CHECK(all.size() == 200000 && changed == 200000);
    CHECK(last() == "not a std::exception");
    layer.on_features_changed(nullptr);

    // A map over the layer: it loads through its layers, and a view of a
    // manual-cache table fetches nothing, so the map is idle at once.
    fc::Map map;
    map.add_layer(layer);
    map.wait(30);
    CHECK(map.load_status() == FC_LOAD_STATUS_LOADED && layer.load_status() == FC_LOAD_STATUS_LOADED);
    map.set_visible_extent({-122.70, 45.50, -122.65, 45.55, 4326}, 10000);
    CHECK(map.wait_idle(30));
    CHECK(moved.cached_feature_count() == 200000);

    // Errors carry what the service said.
    fc::Query bad;
    bad.where("NoSuchField = 1");
    try {
        moved.populate({&bad, true, nullptr});
        CHECK(false);
    } catch (const fc::Error &error) {
        CHECK(error.status() == FC_E_SERVICE && error.service_code() == 400);
        CHECK(std::string(error.what()).find("NoSuchField") != std::string::npos);
    }
    CHECK(moved.cached_feature_count() == 200000);  // a failed populate leaves the cache
    {
        // A query streamed from the service as Arrow: every feature once, and a
        // release before the end.
        fc::Query some;
        some.where("OBJECTID <= 4500");
        ArrowArrayStream stream{};
        moved.open_arrow_stream(&stream, &some, 3);
        ArrowSchema schema{};
        CHECK(stream.get_schema(&stream, &schema) == 0 && schema.n_children >= 2);
        schema.release(&schema);
        int64_t rows = 0;
        for (;;) {
            ArrowArray array{};
            CHECK(stream.get_next(&stream, &array) == 0);
            if (!array.release) break;
            rows += array.length;
            array.release(&array);
        }
        CHECK(rows == 4500);
        stream.release(&stream);
        moved.open_arrow_stream(&stream);
        ArrowArray first{};
        CHECK(stream.get_next(&stream, &first) == 0 && first.length > 0);
        first.release(&first);
        stream.release(&stream);  // 200,000 trees: the rest is never asked for
    }
    {
        // Any service from its URL alone: its items, and a table on one.
        std::string first = emulator_layer(0);
        fc::FeatureService service = fc::FeatureService::open(first.substr(0, first.rfind('/')));
        CHECK(service.kind() == FC_SERVICE_ARCGIS);
        std::vector<fc::ServiceItem> items = service.items();
        CHECK(items.size() == 4 && items[2].id == "2" && items[2].name == "Roads" &&
              items[2].geometry_type == FC_GEOMETRY_TYPE_POLYLINE);
        fc::Table roads = service.table("roads");
        roads.wait(30);
        CHECK(roads.name() == "Roads");
        CHECK(!roads.option_names().empty() && roads.option("query_format") == "auto");
        roads.set_option("query_format", "json");
        CHECK(roads.option("query_format_in_use") == "json");
        try {
            service.table("Rivers");
            CHECK(false);
        } catch (const fc::NotFoundError &) {
            CHECK(true);
        }
    }
    try {
        fc::Table missing = fc::Table::open(emulator_layer(9));
        CHECK(false);
    } catch (const fc::NotFoundError &error) {  // the service does not list layer 9
        CHECK(error.status() == FC_E_NOT_FOUND && error.service_code() == 400);
        CHECK(std::string(error.what()).find("no layer or table 9") != std::string::npos);
    }

    // The table's schema and settings, and queries started asynchronously.
    {
        CHECK(moved.field_count() > 0 && moved.field_index("OBJECTID") >= 0);
        int32_t oid = moved.field_index("OBJECTID");
        CHECK(moved.field_name(oid) == "OBJECTID" && moved.field_type(oid) == FC_FIELD_TYPE_OID);
        CHECK(moved.object_id_field() == "OBJECTID" && moved.geometry_type() == FC_GEOMETRY_TYPE_POINT);
        CHECK(moved.spatial_reference().first != 0 && !moved.has_m());
        fc_envelope extent = moved.extent();
        CHECK(extent.xmin < extent.xmax && moved.max_record_count() > 0);
        CHECK(!moved.url().empty() && moved.cached_bytes() > 0);
        moved.set_definition_expression("OBJECTID > 10");
        CHECK(moved.definition_expression() == "OBJECTID > 10");
        moved.set_definition_expression("");
        fc::Query few_ids;
        few_ids.object_ids({1, 2, 3, 400000});
        fc::Query copied = few_ids.copy();
        std::atomic<int64_t> async_count{-1};
        fc::Operation counting = moved.query_count_async(&copied, [&](fc::OperationView done) {
            async_count = done.count();
        });
        CHECK(counting.wait(60) && async_count == 3 && counting.error() == nullptr);
        fc::Operation rows = moved.query_async(&few_ids);
        CHECK(rows.wait(60) && rows.take_result().size() == 3);
        fc::Operation box = moved.query_extent_async(&few_ids);
        CHECK(box.wait(60) && box.extent().xmin <= box.extent().xmax);
        fc_envelope same = moved.query_extent(&few_ids);
        CHECK(same.xmin == box.extent().xmin && same.ymax == box.extent().ymax);
        CHECK(moved.statistics().queries_local > 0);
        moved.reset_statistics();
        CHECK(moved.statistics().queries_local == 0);
        layer.set_min_scale(50000);
        CHECK(layer.min_scale() == 50000);
        CHECK(map.layer_count() == 1);
        map.set_buffer_factor(1.5);
        CHECK(map.buffer_factor() == 1.5);
        CHECK(moved.load_error() == nullptr);
        try {
            moved.set_page_size(-5);
            CHECK(false);
        } catch (const fc::InvalidArgumentError &error) {  // a class per status code
            CHECK(error.status() == FC_E_INVALID_ARGUMENT);
        }
    }

    // A result outlives its table; values read through the typed getters.
    fc::Result few = [&] {
        fc::Table other = fc::Table::arcgis(emulator_layer(1));
        fc::Query parcels;
        parcels.where("OBJECTID <= 3").out_fields("Zone");
        return other.populate({&parcels, true, nullptr});
    }();
    CHECK(few.size() == 3 && few.field_index("Zone") >= 0 && !few.text(0, few.field_index("Zone")).empty());
    CHECK(few.wkb(0).size > 21 && few.wkb(0).data[0] == 1);

    // Services: the ArcGIS service lists its layers and makes loaded tables;
    // the OGC API and WFS services fail to load on a server that is neither,
    // with the error thrown by wait().
    std::string layer0 = emulator_layer(0);
    std::string service_url = layer0.substr(0, layer0.rfind('/'));
    fc::ArcGISService service(service_url);
    service.wait(30);
    CHECK(service.load_status() == FC_LOAD_STATUS_LOADED && service.layer_count() >= 2);
    fc::Table parcels = service.table(1);
    parcels.wait(30);
    CHECK(parcels.name() == "Parcels");
    for (int kind = 0; kind < 2; kind++) {
        try {
            if (kind == 0) {
                fc::OGCService(service_url).wait(30);
            } else {
                fc::WFSService(service_url).wait(30);
            }
            CHECK(false);
        } catch (const fc::Error &error) {
            CHECK(error.status() != FC_OK && std::string(error.what()).size() > 0);
        }
    }

    // Editing through RAII: a FeatureEdit, apply_edits, and the errors as exceptions.
    {
        std::string url = emulator_layer(0);
        url.replace(url.find("Portland"), 8, "Editable");
        url.replace(url.find("/ns/cpp-0/"), 10, "/ns/cpp-edit/");
        fc::Table inspections = fc::Table::arcgis(url);
        inspections.set_request_mode(FC_REQUEST_MODE_MANUAL_CACHE);
        inspections.populate();
        CHECK(inspections.can_edit(FC_EDIT_ADD));
        const uint8_t point[21] = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0x5f, 0xc0, 0, 0, 0, 0, 0, 0x80, 0x46, 0x40};  // (-125, 45)
        int64_t local = inspections.add_feature(fc::FeatureEdit().set("Status", 2).set("Inspector", "C++").geometry(point, sizeof point));
        CHECK(local < 0);
        inspections.update_feature(4, fc::FeatureEdit().set("Score", 50.5).set_null("Notes"));
        try {
            inspections.add_feature(fc::FeatureEdit().set("Status", 9).geometry(point, sizeof point));
            CHECK(false);
        } catch (const fc::Error &error) {
            CHECK(error.status() == FC_E_INVALID_ARGUMENT && std::string(error.what()).find("Status") != std::string::npos);
        }
        CHECK(inspections.has_local_edits() && inspections.local_edits().size() == 2);
        std::vector<fc::EditResult> results = inspections.apply_edits();
        CHECK(results.size() == 2);
        for (const fc::EditResult &result : results) {
            CHECK(result.status == FC_OK && result.server_object_id > 0 && result.state == FC_EDIT_STATE_APPLIED);
            CHECK(result.server_id == std::to_string(result.server_object_id));
            CHECK(inspections.server_id(result.server_object_id) == result.server_id);
        }
        CHECK(!inspections.has_local_edits() && inspections.undo_edits() == 0);
        try {
            (void)inspections.server_id(local);
            CHECK(false);
        } catch (const fc::NotFoundError &) {
        }
    }

    // The persisted cache: a second table of the same layer reads the first one's features back.
    {
        std::string url = emulator_layer(0);
        url.replace(url.find("Portland"), 8, "Editable");
        url.replace(url.find("/ns/cpp-0/"), 10, "/ns/cpp-cache/");
        char folder[] = "/tmp/fc-cpp-cache-XXXXXX";
        CHECK(mkdtemp(folder) != nullptr);
        fc::Context context;
        context.set_cache_folder(folder, 3600);
        context.set_cache_disk_budget(64 << 20);  /* far above one table's folder: nothing goes */
        try {
            context.set_cache_disk_budget(-1);
            CHECK(false);
        } catch (const fc::Error &error) {
            CHECK(error.status() == FC_E_INVALID_ARGUMENT);
        }
        {
            fc::Table first = fc::Table::arcgis(url, &context);
            first.set_request_mode(FC_REQUEST_MODE_MANUAL_CACHE);
            first.populate();
            CHECK(first.cache_info().folder != nullptr && first.cache_info().revalidation == FC_CACHE_CREATED);
        }
        fc::Table second = fc::Table::arcgis(url, &context);
        second.set_request_mode(FC_REQUEST_MODE_MANUAL_CACHE);
        second.wait(30);
        fc_cache_info info = second.cache_info();
        CHECK(info.restored_features == 200 && !info.offline && info.set_aside == nullptr);
        try {
            second.set_cache_folder("/tmp/elsewhere");
            CHECK(false);
        } catch (const fc::Error &error) {
            CHECK(error.status() == FC_E_INVALID_STATE);
        }
        std::system((std::string("rm -rf ") + folder).c_str());
    }

    std::printf("test_cpp: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
