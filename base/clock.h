/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time: the unit constants every layer converts with, and the monotonic
 * clock that intervals are measured on (collection durations, min_interval,
 * the watchdog), which wall-clock steps cannot move.
 */
#pragma once

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC  UINT64_C(1000000000)
#define NSEC_PER_USEC UINT64_C(1000)
#define USEC_PER_SEC  UINT64_C(1000000)
#define USEC_PER_MSEC UINT64_C(1000)

static inline uint64_t now_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_usec(void)
{
	return now_nsec() / NSEC_PER_USEC;
}
