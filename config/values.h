/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict parsers for the scalar values of the config files, independent of
 * YAML. Each accepts exactly one spelling of a value, so nothing a person
 * writes is silently read as something else (no octal, no "yes" for true).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Decimal digits only, no sign, no leading zero; -EINVAL or -ERANGE. */
int value_parse_u64(const char *s, uint64_t *ret);

/*
 * A Prometheus duration: "0", or units from largest to smallest, each at
 * most once: 1y2w3d4h5m6s7ms (y = 365d, w = 7d). In microseconds.
 */
int value_parse_duration(const char *s, uint64_t *ret_usec);
/* The shortest Prometheus spelling of usec (rounded down to ms); -ENOMEM or 0. */
int value_format_duration(uint64_t usec, char **ret);

/* YAML 1.2 core schema booleans: true/True/TRUE, false/False/FALSE. */
int value_parse_bool(const char *s, bool *ret);

/* YAML 1.2 core schema null: "", "~", null/Null/NULL. */
bool value_is_null(const char *s);

/* An absolute path without "." or ".." components or empty ones ("//"); else a reason. */
const char *value_check_path(const char *s);
