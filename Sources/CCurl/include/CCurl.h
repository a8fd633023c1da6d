/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CCurl: libcurl (HTTP), the one place FeatureCache reaches it, with the
 * non-variadic wrappers Swift can call (curl_easy_setopt is variadic). Internal
 * to the library: nothing here is exported from libfeaturecache.so (the version
 * script keeps only fc_* symbols; these wrappers are named fcsys_*). Only the
 * transport layer imports it.
 */
#ifndef FEATURECACHE_CCURL_H
#define FEATURECACHE_CCURL_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>

typedef size_t (*fcsys_data_callback)(char *data, size_t size, size_t nmemb, void *user_data);

/* curl_easy_setopt is variadic; these pin the argument type. */
CURLcode fcsys_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode fcsys_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode fcsys_easy_setopt_pointer(CURL *easy, CURLoption option, const void *value);
CURLcode fcsys_easy_setopt_data_callback(CURL *easy, CURLoption option, fcsys_data_callback callback);

CURLcode fcsys_easy_getinfo_long(CURL *easy, CURLINFO info, long *out);
CURLcode fcsys_easy_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *out);
CURLcode fcsys_easy_getinfo_double(CURL *easy, CURLINFO info, double *out);

CURLMcode fcsys_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/* The curl_version_info_data fields Swift needs, without the struct layout. */
const char *fcsys_curl_version(void);

#endif
