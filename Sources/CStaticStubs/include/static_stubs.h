// Nothing to call: the stand-ins in static_stubs.c replace C library
// functions at link time (see that file).
