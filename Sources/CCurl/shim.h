#ifndef PUSHCHECK_CCURL_SHIM_H
#define PUSHCHECK_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt / curl_multi_setopt / curl_easy_getinfo are variadic: one typed wrapper per argument kind. */
static inline CURLcode pc_easy_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode pc_easy_setopt_ptr(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode pc_easy_setopt_str(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode pc_easy_setopt_off(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode pc_easy_setopt_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode pc_easy_setopt_blob(CURL *c, CURLoption o, struct curl_blob *v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*pc_data_callback)(char *, size_t, size_t, void *);
static inline CURLcode pc_easy_setopt_datafn(CURL *c, CURLoption o, pc_data_callback f) { return curl_easy_setopt(c, o, f); }
static inline CURLcode pc_easy_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode pc_easy_getinfo_str(CURL *c, CURLINFO i, char **v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode pc_easy_getinfo_double(CURL *c, CURLINFO i, double *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode pc_easy_getinfo_ptr(CURL *c, CURLINFO i, void **v) { return curl_easy_getinfo(c, i, v); }
static inline CURLMcode pc_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode pc_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
/* HTTPClient additions */
static inline CURLcode pc_easy_getinfo_off(CURL *c, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(c, i, v); }
#endif
