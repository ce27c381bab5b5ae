// prctl(2) is variadic, which Swift cannot call: these fixed-argument
// wrappers, compiled inline, are all authcat uses of it (ProcessHardening).
#include <sys/prctl.h>

static inline int authcat_prctl_set_dumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int authcat_prctl_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}
