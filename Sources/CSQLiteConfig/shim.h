// sqlite3_config(3) is variadic, which Swift cannot call: this fixed-argument
// wrapper, compiled inline, is all authcat uses of it (VaultReader, for the
// quick front only).
#include <sqlite3.h>

/// Before SQLite is first used, for a process with one thread that reads a
/// few pages and ends: no mutex anywhere, no count of memory in use (which
/// takes a mutex at every allocation), and no memory set aside ahead of use:
/// neither the page cache's first 20 slots nor each connection's lookaside
/// slots, which SQLite writes, and so the kernel maps, before the first read.
static inline int authcat_sqlite3_config_one_short_read(void) {
    int status = sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
    if (status == SQLITE_OK) status = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (status == SQLITE_OK) status = sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
    if (status == SQLITE_OK) status = sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0);
    return status;
}
