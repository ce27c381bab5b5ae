// libcurl, loaded the first time it is called rather than when authcat-cli starts.
//
// FoundationNetworking (URLSession) and the network remotes' HTTP transport
// (HTTPTransport, through CCurl's wrappers) call the 25 libcurl functions
// defined here. Linked against libcurl itself, every
// start of authcat-cli mapped libcurl and the 27 libraries it needs (3 to 4 ms,
// docs/PERFORMANCE.md), though only sync with a network remote uses them. These
// definitions satisfy FoundationNetworking's references instead; the first call
// of any of them opens libcurl with dlopen, finds the real functions, and from
// then on each one forwards to its namesake. libcurl is the same library, found
// by the same soname and search path as before; the Debian package still
// depends on it (scripts/package-deb).
//
// The three variadic functions take exactly one argument after the option,
// whose C type the option's number says (CURLOPTTYPE_*, CURLINFO_TYPEMASK), as
// libcurl itself reads it; it is read and passed on with that type.

// The functions are defined here, so curl.h must not turn them into its type-checking macros.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LIBCURL_SONAME "libcurl.so.4"

// One pointer per function, named after it, set once by `load`.
#define LIBCURL_FUNCTIONS(X)                                                                                           \
    X(curl_easy_cleanup, void, (CURL *))                                                                               \
    X(curl_easy_getinfo, CURLcode, (CURL *, CURLINFO, ...))                                                            \
    X(curl_easy_init, CURL *, (void))                                                                                  \
    X(curl_easy_pause, CURLcode, (CURL *, int))                                                                        \
    X(curl_easy_perform, CURLcode, (CURL *))                                                                           \
    X(curl_easy_reset, void, (CURL *))                                                                                 \
    X(curl_easy_setopt, CURLcode, (CURL *, CURLoption, ...))                                                           \
    X(curl_easy_strerror, const char *, (CURLcode))                                                                    \
    X(curl_free, void, (void *))                                                                                       \
    X(curl_global_init, CURLcode, (long))                                                                              \
    X(curl_multi_add_handle, CURLMcode, (CURLM *, CURL *))                                                             \
    X(curl_multi_assign, CURLMcode, (CURLM *, curl_socket_t, void *))                                                  \
    X(curl_multi_cleanup, CURLMcode, (CURLM *))                                                                        \
    X(curl_multi_info_read, CURLMsg *, (CURLM *, int *))                                                               \
    X(curl_multi_init, CURLM *, (void))                                                                                \
    X(curl_multi_remove_handle, CURLMcode, (CURLM *, CURL *))                                                          \
    X(curl_multi_setopt, CURLMcode, (CURLM *, CURLMoption, ...))                                                       \
    X(curl_multi_socket_action, CURLMcode, (CURLM *, curl_socket_t, int, int *))                                       \
    X(curl_slist_append, struct curl_slist *, (struct curl_slist *, const char *))                                     \
    X(curl_slist_free_all, void, (struct curl_slist *))                                                                \
    X(curl_url, CURLU *, (void))                                                                                       \
    X(curl_url_get, CURLUcode, (CURLU *, CURLUPart, char **, unsigned int))                                       \
    X(curl_url_set, CURLUcode, (CURLU *, CURLUPart, const char *, unsigned int))                                      \
    X(curl_version, char *, (void))                                                                                    \
    X(curl_version_info, curl_version_info_data *, (CURLversion))

#define DECLARE_POINTER(name, result, parameters) static result(*real_##name) parameters;
LIBCURL_FUNCTIONS(DECLARE_POINTER)

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

// authcat-cli cannot go on without the library a network remote needs, and
// FoundationNetworking has no way to report it; so the process ends with one
// line, as it did before when the loader did not find libcurl at start.
static void fail(const char *what) {
    char line[512];
    int length = snprintf(line, sizeof line, "authcat: cannot load %s, which S3 and WebDAV remotes need: %s\n",
                          LIBCURL_SONAME, what ? what : "unknown error");
    if (length > 0) (void)!write(STDERR_FILENO, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
    _exit(EXIT_FAILURE);
}

static void load(void) {
    void *library = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) fail(dlerror());
#define RESOLVE(name, result, parameters)                                                                              \
    *(void **)(&real_##name) = dlsym(library, #name);                                                                  \
    if (!real_##name) fail(dlerror());
    LIBCURL_FUNCTIONS(RESOLVE)
}

#define REAL(name) (pthread_once(&loaded, load), real_##name)

void curl_easy_cleanup(CURL *handle) { REAL(curl_easy_cleanup)(handle); }
CURL *curl_easy_init(void) { return REAL(curl_easy_init)(); }
CURLcode curl_easy_pause(CURL *handle, int bitmask) { return REAL(curl_easy_pause)(handle, bitmask); }
CURLcode curl_easy_perform(CURL *handle) { return REAL(curl_easy_perform)(handle); }
void curl_easy_reset(CURL *handle) { REAL(curl_easy_reset)(handle); }
const char *curl_easy_strerror(CURLcode code) { return REAL(curl_easy_strerror)(code); }
void curl_free(void *pointer) { REAL(curl_free)(pointer); }
CURLcode curl_global_init(long flags) { return REAL(curl_global_init)(flags); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) { return REAL(curl_multi_add_handle)(multi, handle); }
CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *pointer) {
    return REAL(curl_multi_assign)(multi, socket, pointer);
}
CURLMcode curl_multi_cleanup(CURLM *multi) { return REAL(curl_multi_cleanup)(multi); }
CURLMsg *curl_multi_info_read(CURLM *multi, int *left) { return REAL(curl_multi_info_read)(multi, left); }
CURLM *curl_multi_init(void) { return REAL(curl_multi_init)(); }
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return REAL(curl_multi_remove_handle)(multi, handle);
}
CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int mask, int *running) {
    return REAL(curl_multi_socket_action)(multi, socket, mask, running);
}
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return REAL(curl_slist_append)(list, text);
}
void curl_slist_free_all(struct curl_slist *list) { REAL(curl_slist_free_all)(list); }
CURLU *curl_url(void) { return REAL(curl_url)(); }
CURLUcode curl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    return REAL(curl_url_get)(url, part, text, flags);
}
CURLUcode curl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    return REAL(curl_url_set)(url, part, text, flags);
}
char *curl_version(void) { return REAL(curl_version)(); }
curl_version_info_data *curl_version_info(CURLversion version) { return REAL(curl_version_info)(version); }

// The option's number says its argument's type: below 10,000 a long, then
// pointers, function pointers, curl_off_t and blobs (CURLOPTTYPE_*, curl.h).
CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLcode code;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        code = REAL(curl_easy_setopt)(handle, option, va_arg(arguments, long));
    } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
        code = REAL(curl_easy_setopt)(handle, option, va_arg(arguments, void *));
    } else if (option < CURLOPTTYPE_OFF_T) {
        code = REAL(curl_easy_setopt)(handle, option, va_arg(arguments, void (*)(void)));
    } else if (option < CURLOPTTYPE_BLOB) {
        code = REAL(curl_easy_setopt)(handle, option, va_arg(arguments, curl_off_t));
    } else {
        code = REAL(curl_easy_setopt)(handle, option, va_arg(arguments, struct curl_blob *));
    }
    va_end(arguments);
    return code;
}

CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLMcode code;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        code = REAL(curl_multi_setopt)(multi, option, va_arg(arguments, long));
    } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
        code = REAL(curl_multi_setopt)(multi, option, va_arg(arguments, void *));
    } else if (option < CURLOPTTYPE_OFF_T) {
        code = REAL(curl_multi_setopt)(multi, option, va_arg(arguments, void (*)(void)));
    } else {
        code = REAL(curl_multi_setopt)(multi, option, va_arg(arguments, curl_off_t));
    }
    va_end(arguments);
    return code;
}

// Every piece of information is returned through one pointer, whatever its type.
CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    va_list arguments;
    va_start(arguments, info);
    CURLcode code = REAL(curl_easy_getinfo)(handle, info, va_arg(arguments, void *));
    va_end(arguments);
    return code;
}
