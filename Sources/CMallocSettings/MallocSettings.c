// The allocator of the aasa-audit executable: jemalloc, linked by this target.
//
// An audit is dominated by OpenSSL 3.0's per-connection set-up, which allocates and frees
// many small objects; with glibc's malloc, malloc and free were about a tenth of the
// audit's CPU. jemalloc cut the CPU per domain by about 10% (docs/performance.md).
// One arena keeps the peak memory within 3 MB of glibc's; the threads' caches keep the
// fetch threads and Swift's pool from contending for it.
//
// Freed pages go back to the system after a second instead of ten (dirty_decay_ms): a run's
// phases free large structures (the previous run compared, a history line read) and the next
// phase's peak would otherwise stack on pages nobody uses. Measured on the second night of
// 200,000 domains: 300 -> 265 MB peak RSS (docs/robustness.md).
//
// jemalloc reads this symbol when it initialises; MALLOC_CONF in the environment still
// overrides it for experiments.
#include "MallocSettings.h"

const char *malloc_conf = "narenas:1,dirty_decay_ms:1000";
