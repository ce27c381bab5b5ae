// The command line as the Swift runtime hands it to `CommandLine.arguments`,
// taken from glibc rather than found by the runtime. In a program linked
// without it, the runtime's own version runs before `main`, in every process:
// it reads /proc/self/maps, line by line, to find the stack, then walks back
// from `environ` to `argv`. glibc already gives `argc` and `argv` to each
// function of `.preinit_array`, which a static program runs before any
// constructor; keeping them costs nothing, and the quick front no longer
// reads /proc at every start (about 1 % of a `code`: docs/PERFORMANCE.md).
//
// Defining the runtime's function here keeps the linker from taking its
// object out of libswiftCore.a at all. Should a toolchain rename it, that
// object comes back, and only the time is lost; the front's tests run it
// with real command lines either way.

static int saved_count;
static char **saved_arguments;

static void save_arguments(int count, char **arguments, char **environment) {
    (void)environment;
    saved_count = count;
    saved_arguments = arguments;
}

__attribute__((section(".preinit_array"), used)) static void (*const save_arguments_at_start)(int, char **, char **) =
    save_arguments;

/// The runtime's `_swift_stdlib_getUnsafeArgvArgc` (Swift calling convention):
/// `argv`, with `argc` in `count`. Both stay valid for the process's life.
/// Never NULL, which Swift takes for a pointer that cannot be: an empty list
/// should anything ask before glibc's call.
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
    static char *empty[] = {0};
    if (!saved_arguments) {
        *count = 0;
        return empty;
    }
    *count = saved_count;
    return saved_arguments;
}
