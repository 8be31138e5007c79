// libFuzzer's driver, called from each target's entry point (SwiftPM links an executable's
// main to <Target>_main, so libFuzzer's own main is not used).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// Runs libFuzzer with the process's arguments over `callback`: each target's entry point is
/// this one call.
int fuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size));
