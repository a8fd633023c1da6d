// SPDX-License-Identifier: Apache-2.0
// The C++ layer (featurecache.hpp): load a table with a load callback, set a
// request mode, populate an extent with progress, iterate the result — with
// RAII owners and exceptions instead of status codes.
//
//   populate_extent [LAYER_URL]
//
// LAYER_URL is an ArcGIS REST feature-service layer; without it, the local
// emulator's Trees layer (FC_EMULATOR_URL, as scripts/demo.sh sets it).
#include <featurecache.hpp>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <string>

namespace fc = featurecache;

int main(int argc, char **argv) {
    std::string url;
    if (argc > 1) {
        url = argv[1];
    } else if (const char *base = std::getenv("FC_EMULATOR_URL")) {
        url = std::string(base) + "/arcgis/rest/services/Portland/FeatureServer/0";
    } else {
        std::fprintf(stderr, "usage: %s LAYER_URL (or set FC_EMULATOR_URL)\n", argv[0]);
        return 2;
    }
    try {
        fc::Table table = fc::Table::arcgis(url);
        table.set_request_mode(FC_REQUEST_MODE_MANUAL_CACHE);

        // The load callback runs on a library thread; an exception thrown there
        // would go to the callback error handler, never into the library.
        std::promise<std::string> loaded;
        table.load([&loaded](const fc::Error *error) {
            loaded.set_value(error ? std::string("failed: ") + error->what() : std::string("loaded"));
        });
        std::printf("table: %s\n", loaded.get_future().get().c_str());
        table.wait();  // throws the load's error, if any
        std::printf("'%.*s': %d fields\n", static_cast<int>(table.name().size()), table.name().data(), table.field_count());

        fc::Query query;
        query.envelope({-122.70, 45.50, -122.65, 45.55, 4326}).where("Condition = 4").out_fields("Species,DBH");
        fc::PopulateOptions options;
        options.query = &query;
        options.progress = [](const fc_progress &progress) {
            std::printf("  … %lld pages, %lld features\n", static_cast<long long>(progress.pages),
                        static_cast<long long>(progress.features));
        };
        fc::Result result = table.populate(options);
        std::printf("populated %lld features (%lld cached)\n", static_cast<long long>(result.size()),
                    static_cast<long long>(table.cached_feature_count()));
        int32_t species = result.field_index("Species"), dbh = result.field_index("DBH");
        for (int64_t row = 0; row < result.size() && row < 5; row++) {
            std::string_view name = result.is_null(row, species) ? "(unknown)" : result.text(row, species);
            std::printf("  #%lld %.*s, DBH %s\n", static_cast<long long>(result.object_id(row)), static_cast<int>(name.size()), name.data(),
                        result.is_null(row, dbh) ? "NULL" : std::to_string(result.real(row, dbh)).c_str());
        }
        // Errors are exceptions with the status, HTTP status and service code.
        fc::Query bad;
        bad.where("NoSuchField = 1");
        try {
            table.populate({&bad, true, nullptr});
        } catch (const fc::Error &error) {
            std::printf("a bad where clause: %s (%s)\n", error.what(), fc_status_name(error.status()));
        }
    } catch (const fc::Error &error) {
        std::fprintf(stderr, "error: %s: %s (HTTP %d)\n", fc_status_name(error.status()), error.what(),
                     error.http_status());
        return 1;
    }
    return 0;
}
