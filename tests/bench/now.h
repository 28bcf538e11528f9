// SPDX-License-Identifier: GPL-2.0-only
/* The monotonic clock in nanoseconds, for the benchmark's own tools. */
#pragma once

#include <time.h>

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
