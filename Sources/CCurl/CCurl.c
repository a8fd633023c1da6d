/* SPDX-License-Identifier: Apache-2.0 */
#include "CCurl.h"

CURLcode fcsys_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode fcsys_easy_setopt_data_callback(CURL *easy, CURLoption option, fcsys_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode fcsys_easy_getinfo_long(CURL *easy, CURLINFO info, long *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLcode fcsys_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLcode fcsys_easy_getinfo_double(CURL *easy, CURLINFO info, double *out) {
    return curl_easy_getinfo(easy, info, out);
}

CURLMcode fcsys_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

const char *fcsys_curl_version(void) {
    return curl_version_info(CURLVERSION_NOW)->version;
}
