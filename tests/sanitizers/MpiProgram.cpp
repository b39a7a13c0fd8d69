// Sanitizer builds only (SHARDLAB_SANITIZE): linked into the programs that start MPI
// (shardlab-worker, comm_stream_tests), so that LeakSanitizer's suppressions
// (tests/sanitizers/lsan.supp) can name Open MPI's own allocations, while leaks in
// our code still fail.

// Keep every library loaded: Open MPI unloads its components (mca_*.so) in
// MPI_Finalize, and the memory they kept for the life of the process would then be
// reported with "<unknown module>" stacks, which no suppression can name.
extern "C" int dlclose(void*) { return 0; }

// Open MPI and libc are built without frame pointers: the fast unwinder stops in
// them (a vasprintf inside libopen-pal shows as an unknown frame). The slow one
// reaches the library's frames. Only these programs pay for it; the ASAN_OPTIONS
// of the test presets may still override it.
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }
