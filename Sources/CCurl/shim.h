// libcurl's easy interface, for the network remotes' one HTTP transport
// (Sources/AuthCatSync/Remotes/HTTP/HTTPTransport+Curl.swift, the one file that imports it).
// curl_easy_setopt is variadic, which Swift cannot call: these
// fixed-argument wrappers, compiled inline, pass each argument
// with the type its option takes. authcat-cli defines libcurl's functions in
// CLibcurlOnDemand and loads libcurl on the first call.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

typedef size_t (*authcat_curl_data_function)(char *, size_t, size_t, void *);
typedef int (*authcat_curl_progress_function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode authcat_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode authcat_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode authcat_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode authcat_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode authcat_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode authcat_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode authcat_curl_set_data_function(CURL *handle, CURLoption option,
                                                      authcat_curl_data_function function) {
    return curl_easy_setopt(handle, option, function);
}

static inline CURLcode authcat_curl_set_progress_function(CURL *handle, authcat_curl_progress_function function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
