/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What cgacctd holds that it does not need: reading cgroup files and
 * serving HTTP on an unprivileged port takes no capability at all.
 */
#pragma once

#include <stdint.h>

/* The effective capability set from /proc/self/status ("CapEff:"); 0 when it cannot tell. */
uint64_t privileges_effective(void);
