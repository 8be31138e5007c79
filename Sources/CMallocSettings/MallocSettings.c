// The allocator of the aasa-audit executable: jemalloc, linked by this target.
//
// An audit is dominated by OpenSSL 3.0's per-connection set-up, which allocates and frees
// many small objects; with glibc's malloc, malloc and free were about a tenth of the
// audit's CPU. jemalloc cut the CPU per domain by about 10% (docs/performance.md).
// One arena keeps the peak memory within 3 MB of glibc's; the threads' caches keep the
// fetch threads and Swift's pool from contending for it.
//
// jemalloc reads this symbol when it initialises; MALLOC_CONF in the environment still
// overrides it for experiments.
#include "MallocSettings.h"

const char *malloc_conf = "narenas:1";
