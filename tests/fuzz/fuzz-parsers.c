/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets of the collector, one per parser of what the kernel writes
 * (see fuzz.h), and of the cgroup paths whose names anyone with a
 * delegated subtree chooses (cgroup_identity): what a path names lies
 * within it, and a pod comes with its QoS class.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/controllers/cpu.h"
#include "collector/controllers/cpuacct.h"
#include "collector/controllers/pressure.h"
#include "collector/devname.h"
#include "collector/devstat.h"
#include "collector/identity.h"
#include "collector/layout.h"
#include "collector/parse.h"
#include "fuzz.h"

TARGET fuzz_mountinfo(const char *buf, size_t len)
{
	struct layout l;

	if (layout_parse_mountinfo(buf, len, "/prefix", &l) == 0)
		layout_done(&l);
}

TARGET fuzz_flat_keyed(const char *buf, size_t len)
{
	static const char *const keys[] = {"total_cache", "anon", "max", "nr_periods", "user"};
	uint64_t v[5], found;

	if (parse_flat_keyed(buf, len, keys, 5, v, &found) == 0 && found >> 5)
		abort();
}

TARGET fuzz_single_value(const char *buf, size_t len)
{
	uint64_t v;
	int64_t s;

	(void)parse_single_value(buf, len, &v);
	(void)parse_single_s64(buf, len, &s);
}

TARGET fuzz_u64_list(const char *buf, size_t len)
{
	uint64_t *v;
	size_t n;

	if (parse_u64_list(buf, len, &v, &n) == 0)
		free(v);
}

TARGET fuzz_usage_all(const char *buf, size_t len)
{
	uint64_t *v;
	size_t n;

	if (parse_usage_all(buf, len, &v, &n) == 0)
		free(v);
}

TARGET fuzz_cpu_max(const char *buf, size_t len)
{
	uint64_t quota, period;

	(void)parse_cpu_max(buf, len, &quota, &period);
}

TARGET fuzz_pressure(const char *buf, size_t len)
{
	uint64_t totals[2], found;

	if (parse_pressure(buf, len, totals, &found) == 0 && found > 3)
		abort();
}

/* The per-device parsers share one table, as in the blkio reader. */
TARGET fuzz_devstat(const char *buf, size_t len)
{
	struct dev_table t = {0};

	(void)parse_io_stat(buf, len, &t);
	(void)parse_io_max(buf, len, &t);
	(void)parse_blkio_rwstat(buf, len, DEV_RBYTES, &t);
	(void)parse_blkio_rwstat(buf, len, DEV_RIOS, &t);
	(void)parse_dev_value(buf, len, DEV_WIOPS, &t);
	for (size_t i = 0; i < t.n; i++)
		if (t.devs[i].found >> _DEV_FIELD_MAX)
			abort();
	dev_table_done(&t);
}

TARGET fuzz_uevent(const char *buf, size_t len)
{
	char name[LABEL_MAX];

	if (parse_uevent_devname(buf, len, name) == 0 && strlen(name) >= LABEL_MAX)
		abort();
}

static void check_span(const char *path, size_t len, const struct identity_span *s)
{
	char value[IDENTITY_VALUE_MAX + 1];

	if ((size_t)s->off + s->len > len)
		abort();
	identity_value(path, s, value);
	if (strlen(value) > s->len)
		abort();
}

TARGET fuzz_cgroup_identity(const char *buf, size_t len)
{
	char *path = fuzz_string(buf, len);
	struct identity id;

	if (!path)
		return;
	len = strlen(path);
	identity_parse(path, &id);
	check_span(path, len, &id.unit);
	check_span(path, len, &id.container_id);
	check_span(path, len, &id.pod_uid);
	if ((id.pod_uid.len > 0) != (id.qos_class != NULL) ||
	    (id.runtime && id.container_id.len == 0))
		abort();
	free(path);
}

FUZZ_MAIN()
