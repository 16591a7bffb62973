// jemalloc's start-up options for the binaries that use it as their
// allocator (third_party/BUILD). jemalloc reads the global `malloc_conf`
// when it initializes; the MALLOC_CONF environment variable still
// overrides it.
//
// dirty_decay_ms:-1 keeps freed pages mapped for reuse instead of handing
// them back to the kernel. Without it, freeing a large result (the 64 MiB
// of a 16M-element f32 array) ends in madvise(MADV_DONTNEED), and the next
// run's result faults every page in again: on `kiln bench` of a
// 16M-element add, 16,384 page faults a run, which made the run twice as
// slow as the add itself. The cost is that the process keeps its peak
// heap until it exits, which suits a tool whose runs repeat the same
// allocations (bench, conform, fuzz).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "dirty_decay_ms:-1";
}
