// Nothing to call: the stand-ins in static_stubs.c replace C library
// functions, and arguments.c a Swift runtime function, at link time (see
// those files).
