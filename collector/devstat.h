/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-device block I/O values as parsed from blkio/io files, before the
 * device number becomes a name. One table collects every file of a cgroup.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

enum dev_field {
	DEV_RBYTES,
	DEV_WBYTES,
	DEV_DBYTES,
	DEV_RIOS,
	DEV_WIOS,
	DEV_DIOS,
	DEV_RBPS,
	DEV_WBPS,
	DEV_RIOPS,
	DEV_WIOPS,
	_DEV_FIELD_MAX,
};

struct dev_stats {
	uint32_t major, minor;
	uint64_t v[_DEV_FIELD_MAX];
	uint32_t found; /* bit per dev_field */
};

struct dev_table {
	struct dev_stats *devs; /* in order of first appearance */
	size_t n;
};

int parse_blkio_rwstat(const char *buf, size_t len, enum dev_field read_field, struct dev_table *t);
int parse_dev_value(const char *buf, size_t len, enum dev_field field, struct dev_table *t);
int parse_io_stat(const char *buf, size_t len, struct dev_table *t);
int parse_io_max(const char *buf, size_t len, struct dev_table *t);
void dev_table_done(struct dev_table *t);
