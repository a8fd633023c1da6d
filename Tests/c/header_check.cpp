// SPDX-License-Identifier: Apache-2.0
// Compiled as C++17 with -Wall -Wextra -Werror -pedantic: the header must be clean
// and usable from C++ (extern "C", no C-only constructs).
#include "featurecache.h"
#include "featurecache.hpp"

#include <cstdio>
#include <string>

namespace {
void on_status(fc_loadable *, int32_t, void *) {}
}

int main() {
    fc_load_status_callback callback = on_status;
    (void)callback;
    fc_envelope envelope{0.0, 0.0, 1.0, 1.0, 3857};
    fc_populate_options options = FC_POPULATE_OPTIONS_INIT;
    if (!options.clear_cache || options.struct_size != sizeof options) return 1;
    std::string version = fc_version();
    if (version != FC_VERSION_STRING || envelope.wkid != 3857) return 1;
    std::printf("header ok (C++, %s)\n", version.c_str());
    return 0;
}
