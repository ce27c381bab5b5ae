// sqlite3_config(3) is variadic, which Swift cannot call: this fixed-argument
// wrapper, compiled inline, is all authcat uses of it (VaultReader, for the
// quick front only).
#include <sqlite3.h>

/// Before SQLite is first used: no mutex anywhere (one thread uses SQLite)
/// and no count of memory in use (which takes a mutex at every allocation).
static inline int authcat_sqlite3_config_single_thread(void) {
    int status = sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
    if (status != SQLITE_OK) return status;
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
