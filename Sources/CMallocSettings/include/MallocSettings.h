// jemalloc's settings for the aasa-audit executable (see MallocSettings.c).
#ifndef MALLOCSETTINGS_H
#define MALLOCSETTINGS_H

/// Read by jemalloc at start-up (its documented `malloc_conf` symbol).
extern const char *malloc_conf;

#endif
