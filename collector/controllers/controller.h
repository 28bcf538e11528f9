/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The common interface of the per-controller readers, one per file: a
 * reader per hierarchy kind that reads one cgroup's files of its
 * controller through the reader (reader.h). Everything else about a
 * controller comes from its row in model/controllers.h, whose id names its
 * reader: reader_<id>. The snapshot counts each controller's failures
 * under its name as a "collector" (struct collector_status,
 * cgacct_collector_success), beside the walk's own; collectors[i] is
 * controller i.
 *
 * A reader returns -errno only for real failures; -ENODEV/-ENOENT from a
 * started read means the cgroup vanished.
 */
#pragma once

#include <stdbool.h>

#include "collector/controllers/reader.h"
#include "model/controllers.h"

struct controller_reader {
	int (*read_v1)(const struct reader_ctx *c); /* NULL: not on v1 */
	int (*read_v2)(const struct reader_ctx *c); /* NULL: not on the unified hierarchy */
};

#define CONTROLLER_READER(id, name, alias, v1) extern const struct controller_reader reader_##id;
CGACCT_CONTROLLERS(CONTROLLER_READER)
#undef CONTROLLER_READER

/* reader_<id> at CONTROLLER_<id>. */
extern const struct controller_reader *const controller_readers[_CONTROLLER_MAX];
