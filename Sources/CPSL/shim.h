#include <libpsl.h>
