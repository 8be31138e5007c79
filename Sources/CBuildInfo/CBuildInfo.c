#include "CBuildInfo.h"

#ifndef AASA_BUILD_COMMIT
#define AASA_BUILD_COMMIT ""
#endif

const char *aasa_build_commit(void) { return AASA_BUILD_COMMIT; }
