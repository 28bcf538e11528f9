/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cgroup controllers cgacct reads, one row each: everything else about
 * a controller is derived from its row. CGACCT_CONTROLLERS(X) calls
 * X(id, name, alias, v1) per row:
 *
 *   id     its reader, reader_<id> (collector/controllers/<id>.c), and
 *          CONTROLLER_<id>, its bit in every mask of controllers
 *   name   as `controllers:` in cgacctd.yml and cgacct_collector_success
 *          name it
 *   alias  a second name `controllers:` accepts for it, or NULL
 *   v1     its name among a v1 hierarchy's mount options, which must be
 *          bound there for its v1 reader; "": it has none (v2 only)
 *
 * The metrics a controller gives name it in their rows (metric-rows.h).
 * Adding a controller is a row here and its reader.
 */
#pragma once

#include <assert.h>
#include <stddef.h>

#define CGACCT_CONTROLLERS(X)                                                                      \
	X(cpuacct, "cpuacct", NULL, "cpuacct")                                                     \
	X(cpu, "cpu", NULL, "cpu")                                                                 \
	X(memory, "memory", NULL, "memory")                                                        \
	X(hugetlb, "hugetlb", NULL, "hugetlb")                                                     \
	X(blkio, "blkio", "io", "blkio")                                                           \
	X(pids, "pids", NULL, "pids")                                                              \
	X(pressure, "pressure", NULL, "")

enum controller_id {
#define CONTROLLER_ENUM(id, name, alias, v1) CONTROLLER_##id,
	CGACCT_CONTROLLERS(CONTROLLER_ENUM)
#undef CONTROLLER_ENUM
	    _CONTROLLER_MAX,
};

/* Masks of controllers are unsigned: bit CONTROLLER_<id>. */
static_assert(_CONTROLLER_MAX <= 32, "a mask of controllers is an unsigned");
#define CONTROLLER_BIT(id) (1u << (id))
#define CONTROLLERS_ALL	   ((1u << _CONTROLLER_MAX) - 1)

struct controller_info {
	const char *name;
	const char *alias; /* NULL: none */
	const char *v1;	   /* "": not on v1 */
};

extern const struct controller_info controller_info[_CONTROLLER_MAX];
