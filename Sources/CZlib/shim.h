// zlib, which compresses the blocks of a Rewind log (docs/log-format.md). It ships with every
// Apple SDK and with Debian's zlib1g-dev.
#include <zlib.h>
