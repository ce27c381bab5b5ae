// Stand-ins for the C library functions that glibc supports only in dynamic
// programs. The quick front (`authcat`) is a static executable; when it links
// glibc's own versions, the linker warns that they need glibc's shared
// libraries at run time (to look up users and groups through NSS, or to load
// a library). The front never needs either, so these fail at once instead,
// as they would on a system without those libraries, and the build stays
// free of warnings. Callers: FoundationEssentials (home folders of other
// users, file owners, temporary files), the Swift runtime (an optional library
// of prespecialised generics) and SQLite (loadable extensions).

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>

int getpwnam_r(const char *name, struct passwd *entry, char *buffer, size_t size, struct passwd **result) {
    (void)name; (void)entry; (void)buffer; (void)size;
    *result = NULL;
    return 0;
}

int getpwuid_r(uid_t uid, struct passwd *entry, char *buffer, size_t size, struct passwd **result) {
    (void)uid; (void)entry; (void)buffer; (void)size;
    *result = NULL;
    return 0;
}

int getgrnam_r(const char *name, struct group *entry, char *buffer, size_t size, struct group **result) {
    (void)name; (void)entry; (void)buffer; (void)size;
    *result = NULL;
    return 0;
}

int getgrgid_r(gid_t gid, struct group *entry, char *buffer, size_t size, struct group **result) {
    (void)gid; (void)entry; (void)buffer; (void)size;
    *result = NULL;
    return 0;
}

char *mktemp(char *template) {
    template[0] = '\0';
    errno = EINVAL;
    return template;
}

void *dlopen(const char *file, int mode) {
    (void)file; (void)mode;
    return NULL;
}
