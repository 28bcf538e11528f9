/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

enum { PRESSURE_SOME, PRESSURE_FULL };

int parse_pressure(const char *buf, size_t len, uint64_t totals[2], uint64_t *ret_found);
