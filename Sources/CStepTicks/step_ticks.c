#include "step_ticks.h"

#include <stdio.h>
#include <string.h>

int rewind_step_counter_is_trusted(void) {
#if defined(__APPLE__)
    return 1;
#elif defined(__linux__) && defined(__aarch64__)
    return 1;
#elif defined(__linux__) && (defined(__x86_64__) || defined(__i386__))
    // The kernel keeps time with the TSC only where it found it invariant and in step across
    // cores; in a virtual machine whose TSC it does not trust it picks another clock source.
    FILE *file = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (file == NULL) return 0;
    char source[32] = {0};
    int trusted = fgets(source, sizeof source, file) != NULL && strncmp(source, "tsc", 3) == 0 && (source[3] == '\n' || source[3] == 0);
    fclose(file);
    return trusted;
#else
    return 0;
#endif
}
