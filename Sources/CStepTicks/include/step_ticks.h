#ifndef REWIND_STEP_TICKS_H
#define REWIND_STEP_TICKS_H

#include <stdint.h>
#include <time.h>

#if defined(__APPLE__)
#include <mach/mach_time.h>
#elif defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/// Whether `rewind_step_counter()` reads a counter the system trusts as a clock: the time
/// stamp counter where the kernel keeps time with it (Linux on x86), the architected timer
/// (Linux on ARM64), `mach_absolute_time` (Apple platforms). Worked out once; 0 elsewhere.
int rewind_step_counter_is_trusted(void);

/// The counter a recorder stamps each step with, read without a system call: 9 ns here
/// (`rdtsc`), against 20 ns for `clock_gettime`. Its ticks become times on the recorder's
/// own thread. Only meaningful where `rewind_step_counter_is_trusted()` says so.
static inline uint64_t rewind_step_counter(void) {
#if defined(__APPLE__)
    return mach_absolute_time();
#elif defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

/// `CLOCK_MONOTONIC` in nanoseconds: the ticks where the counter is not trusted.
static inline uint64_t rewind_step_monotonic_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

/// `CLOCK_REALTIME` in nanoseconds since 1970.
static inline int64_t rewind_step_wall_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_REALTIME, &time);
    return (int64_t)time.tv_sec * 1000000000 + (int64_t)time.tv_nsec;
}

#endif
