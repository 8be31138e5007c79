// libFuzzer's driver, called from each target's entry point (SwiftPM links an executable's
// main to <Target>_main, so libFuzzer's own main is not used).
#include "FuzzDriver.h"

int fuzz_run(int argc, char **argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
