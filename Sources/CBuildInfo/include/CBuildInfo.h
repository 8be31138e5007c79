#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The commit the binary was built from, as Scripts/release.sh passes it
/// (-Xcc -DAASA_BUILD_COMMIT=\"…\"); an empty string for other builds.
const char *aasa_build_commit(void);

#endif
