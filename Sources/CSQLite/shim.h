// SQLite 3 (Debian's libsqlite3-dev): the embedded store of a run's journal.
#include <sqlite3.h>

/// SQLITE_TRANSIENT, which C defines as a cast Swift cannot import: SQLite copies the bytes
/// bound with it before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
